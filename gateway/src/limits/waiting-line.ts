/**
 * The waiting line of a password guard: the attempts of this process that found a key's places
 * taken by attempts in progress, waiting for one of them to end (login-guard.ts).
 */

/** The attempts of this process waiting on one key, oldest first, and the places settlements here freed for them. */
export class Line {
  readonly waiters: Waiter[] = [];
  /** Settlements here not yet answered by a look of the first in line. */
  freed = 0;
}

/**
 * One attempt in a line: waits until woken or for a time. A wake that comes before the wait begins
 * is kept, not lost; a wake asking for a look outweighs one that does not.
 */
export class Waiter {
  #woken: { look: boolean } | undefined;
  #end: (() => void) | undefined;

  wake(look: boolean): void {
    this.#woken = { look: look || this.#woken?.look === true };
    this.#end?.();
  }

  /** Whether to look again: woken for a look, or the time is up; false when only woken to wait anew. */
  async wait(ms: number): Promise<boolean> {
    if (!this.#woken) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, ms);
        this.#end = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#end = undefined;
    }
    const woken = this.#woken;
    this.#woken = undefined;
    return woken?.look ?? true;
  }
}
