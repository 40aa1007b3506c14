/**
 * A few reusable buffers for moving bytes from a source to a socket without allocating per chunk.
 *
 * Node allocates a fresh Buffer for every chunk a file stream reads or an HTTP parser delivers, and
 * V8 collects their memory only when a major GC runs, which it starts on "external memory pressure"
 * (tens of MiB): a 1 GiB transfer costs dozens of full-heap mark-compacts and as much again in RSS
 * (bench/file-transfer.ts). A ring hands out at most `count` buffers of `size` bytes; a buffer is
 * taken for one read, written, and given back from the write's callback, when the kernel holds the
 * bytes. So a transfer touches `count * size` bytes of memory however long it runs, and the
 * consumer's pace (the socket's) is the producer's: with every buffer in flight there is nothing to
 * read into.
 *
 * @example
 * const ring = new BufferRing(4, 256 * 1024);
 * const buffer = ring.take() ?? (await ring.available(), ring.take()!);
 * const { bytesRead } = await file.read(buffer, 0, buffer.length, position);
 * socket.write(buffer.subarray(0, bytesRead), () => ring.give(buffer));
 */
export class BufferRing {
  readonly size: number;
  readonly #count: number;
  readonly #free: Buffer[] = [];
  #allocated = 0;
  #waiters: (() => void)[] = [];

  constructor(count: number, size: number) {
    if (count < 1 || size < 1) throw new RangeError('a buffer ring needs at least one buffer of at least one byte');
    this.#count = count;
    this.size = size;
  }

  /** How many buffers are free (or not yet allocated) now. */
  get free(): number {
    return this.#free.length + (this.#count - this.#allocated);
  }

  /** A free buffer, allocated on first need (outside Node's shared slab); undefined when all are out. */
  take(): Buffer | undefined {
    const buffer = this.#free.pop();
    if (buffer) return buffer;
    if (this.#allocated === this.#count) return undefined;
    this.#allocated++;
    return Buffer.allocUnsafeSlow(this.size);
  }

  /** Gives a buffer back (its bytes are written, or no longer needed), waking one waiter. */
  give(buffer: Buffer): void {
    this.#free.push(buffer);
    this.#waiters.shift()?.();
  }

  /** Resolves when a buffer is free (at once if one is). */
  available(): Promise<void> {
    if (this.free > 0) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push(resolve));
  }
}
