/**
 * When the dispatcher claims again (docs/adr/0080-webhook-delivery-fan-out-queue.md). A claim is one
 * statement over the queue's indexes whatever it takes; taking a few deliveries at a time, claims
 * were the larger part of a delivery's database work (bench/outbox-cost.md). New deliveries, retries
 * due and the claim poll always call for one. A finished attempt calls for one only while the last
 * claim may have left due deliveries behind (it took all it could), or when a later delivery of the
 * same subscription and record, made here, was waiting for this one (per-record order). A later
 * delivery made by another replica's fan-out waits for that replica's next claim, at the latest
 * the claim poll.
 */

/** A delivery's record in its subscription: what per-record order is kept by. */
export function recordKey(subscriptionId: string, entity: string, entityKey: string): string {
  return `${subscriptionId}\u0000${entity}\u0000${entityKey}`;
}

/** Records tracked at most; beyond, the hints are dropped (the claim poll still finds every delivery). */
const MOST_RECORDS = 10_000;

export class ClaimSignals {
  /** The last claim took fewer than it could: nothing due was left unclaimed when it ran. */
  #drained = false;
  /** Deliveries made here and not yet settled, by record. */
  readonly #open = new Map<string, number>();

  /** Whether the last claim left nothing due behind (a fan-out may then lease what it makes). */
  get drained(): boolean {
    return this.#drained;
  }

  /** A claim took `taken` deliveries where it could have taken `most`. */
  claimed(taken: number, most: number): void {
    this.#drained = taken < most;
  }

  /** A fan-out left deliveries it made unleased: they wait in the queue for the next claim. */
  leftBehind(): void {
    this.#drained = false;
  }

  /** The fan-out made a delivery of `key`. */
  made(key: string): void {
    if (this.#open.size >= MOST_RECORDS && !this.#open.has(key)) this.#open.clear();
    this.#open.set(key, (this.#open.get(key) ?? 0) + 1);
  }

  /**
   * An attempt of `key` ended, `settled` when its delivery is done (delivered, failed for good, or
   * not to be sent) rather than waiting for a retry. Whether a claim is called for.
   */
  ended(key: string, settled: boolean): boolean {
    let waiting = false;
    if (settled) {
      const left = (this.#open.get(key) ?? 1) - 1;
      if (left > 0) {
        this.#open.set(key, left);
        waiting = true;
      } else this.#open.delete(key);
    }
    return waiting || !this.#drained;
  }

  /** Nothing in flight and nothing left by the last claim: what was made here has been claimed and settled, by this replica or another. */
  idle(): void {
    if (this.#drained) this.#open.clear();
  }
}
