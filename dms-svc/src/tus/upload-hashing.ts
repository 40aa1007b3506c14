import type { Hash } from 'node:crypto';
import { Transform, pipeline, type Readable } from 'node:stream';
import { ERRORS } from '@tus/utils';

/**
 * The hashing bookkeeping both stores of the resumable uploads share (hashing-file-store.ts on the
 * folder, hashing-s3-store.ts in the bucket): each upload's SHA-256 computed as its bytes arrive,
 * kept while this process knows it, and the request a write reads from directly.
 */

/** The SHA-256 of an upload's first `offset` bytes, while this process knows it. */
export interface HashState {
  offset: number;
  hash: Hash;
}

/**
 * The hash states by upload, the requests the next writes read from, and the count of prefixes
 * hashed again from the store (for the tests and logs). A store owns one.
 */
export class UploadHashes {
  readonly #states = new Map<string, HashState>();
  readonly #sources = new Map<string, Readable>();
  readonly rehashed = { times: 0, bytes: 0 };

  /**
   * The request an upload's next write reads from directly, instead of the stream tus hands over
   * (which reaches it through a web stream and back: about 40 % more CPU per byte in this process,
   * bench/tus-upload.ts). tus is then given a request without a body (tus-adapter.ts), so the limit
   * it would apply to the stream is applied by the tap: no byte beyond the upload's length.
   */
  readFrom(id: string, source: Readable): void {
    this.#sources.set(id, source);
  }

  /** Forgets the request `readFrom` registered for an upload, if it is still `source` (tus refused before writing). */
  unread(id: string, source: Readable): void {
    if (this.#sources.get(id) === source) this.#sources.delete(id);
  }

  /** The request registered for the upload's next write, forgotten here: a write takes it once. */
  takeSource(id: string): Readable | undefined {
    const source = this.#sources.get(id);
    this.#sources.delete(id);
    return source;
  }

  /** The upload's state, forgotten here until a write that ends where it hashed keeps one again. */
  take(id: string): HashState | undefined {
    const state = this.#states.get(id);
    this.#states.delete(id);
    return state;
  }

  keep(id: string, state: HashState): void {
    this.#states.set(id, state);
  }

  forget(id: string): void {
    this.#states.delete(id);
  }

  /** Counts a prefix of `bytes` hashed again from the store. */
  countRehash(bytes: number): void {
    this.rehashed.times++;
    this.rehashed.bytes += bytes;
  }
}

/** What a write's tap has seen. */
export interface TapCount {
  /** The offset up to which the bytes went through the tap (and into the hash, if any). */
  hashed: number;
  /** Whether the write failed on bytes beyond the upload's length (the client's 413). */
  beyondLength: boolean;
}

/**
 * The tap one write's bytes go through on their way to the store: each chunk into `hash` (when the
 * hash goes on from here) and `seen` (the S3 store keeps the first bytes), counted from `offset`;
 * a chunk that would take the upload past `size` fails the write.
 */
export function hashingTap(
  offset: number,
  size: number | undefined,
  hash: Hash | undefined,
  seen?: (chunk: Buffer, at: number) => void,
): { tap: Transform; count: TapCount } {
  const count: TapCount = { hashed: offset, beyondLength: false };
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (size !== undefined && count.hashed + chunk.length > size) {
        count.beyondLength = true;
        return done(new Error('bytes beyond Upload-Length'));
      }
      hash?.update(chunk);
      seen?.(chunk, count.hashed);
      count.hashed += chunk.length;
      done(null, chunk);
    },
  });
  return { tap, count };
}

/**
 * Runs a store's own write of `tap` with the bytes of `direct` (the request itself, piped by
 * `readDirect`) or else of tus's `readable`, the listeners undone once it is over. Any failure of
 * the store's write is its own (a 500), except bytes beyond the length, which are the client's (413).
 */
export async function writeThroughTap(
  tap: Transform,
  count: TapCount,
  direct: Readable | undefined,
  readable: Readable,
  readDirect: (request: Readable, tap: Transform) => () => void,
  write: (tap: Transform) => Promise<number>,
): Promise<number> {
  const stopReading = direct ? readDirect(direct, tap) : (pipeline(readable, tap, () => undefined), () => undefined);
  return write(tap)
    .catch((error: unknown) => {
      throw count.beyondLength ? ERRORS.ERR_SIZE_EXCEEDED : error;
    })
    .finally(stopReading);
}

/**
 * Pipes the request into the tap so that neither side's failure destroys the request: a tap that
 * fails (bytes beyond Upload-Length) is unpiped and the rest of the request read and dropped. A
 * destroyed request would take its socket with it and the refusal (413) could not be answered;
 * @tus/server's own writeToStore keeps the request alive for the same reason. A request that errs
 * or is cut off is `onCut`'s: the folder fails the tap (and so the write), the bucket ends it.
 * Returns what undoes the listeners once the write is over.
 */
export function readRequestInto(
  request: Readable,
  tap: Transform,
  onCut: { events: readonly ('error' | 'close')[]; cut: (error?: Error) => void },
): () => void {
  // its client went away before this write began (while tus waited for the upload's lock): nothing is left to read
  if (request.destroyed) {
    tap.destroy(new Error('the request was closed before its bytes were read'));
    return () => undefined;
  }
  const drain = () => {
    request.unpipe(tap);
    request.resume();
  };
  for (const event of onCut.events) request.on(event, onCut.cut);
  tap.once('error', drain);
  request.pipe(tap);
  return () => {
    for (const event of onCut.events) request.off(event, onCut.cut);
    tap.off('error', drain);
  };
}
