import { createHash, randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import { request, type IncomingMessage } from 'node:http';
import { BufferRing } from '@platform/kit/io/buffer-ring.ts';
import { BenchError } from './scenario.ts';

/** One mebibyte. */
export const MIB = 1024 * 1024;

/** Writes `mib` MiB: one random MiB, each copy with its index in its first 8 bytes (no two alike). The SHA-256 of the whole. */
export async function generateFile(path: string, mib: number): Promise<string> {
  const block = randomBytes(MIB);
  const hash = createHash('sha256');
  const file = await open(path, 'w');
  try {
    for (let i = 0; i < mib; i++) {
      block.writeBigUInt64BE(BigInt(i), 0);
      hash.update(block);
      await file.write(block, 0, MIB);
    }
  } finally {
    await file.close();
  }
  return hash.digest('hex');
}

/** Reads a response's body as text. */
export async function textOf(res: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Sends a request whose body is `before`, the first `size` bytes of the file at `path`, then
 * `after`, with the Content-Length of the three; its answer and the answer's text. The load
 * generator shares the machine's cores with what it measures, so it spends as little as it can: the
 * file is read in 1 MiB pieces into a few reusable buffers (no allocation per chunk), each written
 * once the socket has taken the one before it.
 */
export async function sendFile(
  url: string,
  method: string,
  headers: Record<string, string>,
  path: string,
  size: number,
  before: Buffer = Buffer.alloc(0),
  after: Buffer = Buffer.alloc(0),
): Promise<{ res: IncomingMessage; text: string }> {
  const req = request(url, { method, headers: { ...headers, 'content-length': String(before.length + size + after.length) } });
  const answered = new Promise<IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });
  const write = (bytes: Buffer): Promise<void> => new Promise((resolve, reject) => req.write(bytes, (error) => (error ? reject(error) : resolve())));
  const ring = new BufferRing(4, MIB);
  const file = await open(path, 'r');
  const pending = new Set<Promise<void>>();
  try {
    if (before.length > 0) await write(before);
    for (let position = 0; position < size;) {
      const buffer = ring.take() ?? (await Promise.race(pending), ring.take());
      if (!buffer) continue;
      const { bytesRead } = await file.read(buffer, 0, Math.min(buffer.length, size - position), position);
      if (bytesRead === 0) throw new BenchError(`${path} is shorter than ${size} bytes`);
      position += bytesRead;
      const written = write(buffer.subarray(0, bytesRead)).finally(() => {
        ring.give(buffer);
        pending.delete(written);
      });
      pending.add(written);
    }
    await Promise.all(pending);
    req.end(after);
  } catch (error) {
    req.destroy();
    throw error;
  } finally {
    await file.close();
  }
  const res = await answered;
  return { res, text: await textOf(res) };
}

/** What the multipart upload answers (docs/interface.md#files). */
export interface UploadAnswer {
  fileId: number;
  storedFileName: string;
  fileSize: number;
  checksum?: string;
}

/**
 * POST /api/dms-file/upload at `url` of a multipart form (crProcessId, then the file streamed from
 * disk under a file name of its own); the answer, checked to be a 200 naming a file of `size` bytes.
 */
export async function multipartUpload(url: string, headers: Record<string, string>, path: string, size: number, crProcessId: number): Promise<UploadAnswer> {
  const boundary = `----bench-${randomBytes(12).toString('hex')}`;
  const before = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="crProcessId"\r\n\r\n${crProcessId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench-${boundary.slice(-8)}.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const after = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { res, text } = await sendFile(url, 'POST', { ...headers, 'content-type': `multipart/form-data; boundary=${boundary}` }, path, size, before, after);
  if (res.statusCode !== 200) throw new BenchError(`POST ${url}: HTTP ${res.statusCode}: ${text.slice(0, 500)}`);
  const body = JSON.parse(text) as Partial<UploadAnswer>;
  if (typeof body.fileId !== 'number' || typeof body.storedFileName !== 'string' || body.fileSize !== size) {
    throw new BenchError(`POST ${url}: unexpected answer ${text.slice(0, 500)}`);
  }
  return body as UploadAnswer;
}
