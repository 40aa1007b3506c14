import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { SNIFF_BYTES, storedMimeType } from './stored-mime-type.ts';
import type { StreamCap } from './tenant-limits.ts';
import type { StagedUpload } from './storage.ts';
import { isFormField, originalNameOf } from './upload-fields.ts';

/** An upload received into the storage, not yet a stored file (storage.ts). */
export interface ReceivedUpload {
  staged: StagedUpload;
  originalFileName: string;
  fileSize: number;
  /** SHA-256, lower-case hex, computed while streaming. */
  checksum: string;
  mimeType: string;
  fields: Map<string, string>;
  /** The resumable upload whose reservation the stored file takes over (upload-reservations.ts); none for a multipart upload. */
  reservation?: string;
}

/**
 * The tenant's caps for the file part, asked when the part begins with the text fields read so far
 * (the tenant's maxFileSize and remaining quota when the form names crProcessId before the file);
 * it may refuse (a tenant the caller may not name). The part waits (backpressure) for the answer.
 */
export type CapsOf = (fields: ReadonlyMap<string, string>) => Promise<readonly StreamCap[]>;

/**
 * Streams a multipart upload (busboy) into `staged` (a temporary file, or an object being uploaded), hashing and counting as the bytes pass;
 * nothing holds more than a chunk and the first 4,100 bytes. The part over `maxBytes` is found
 * while streaming (busboy's fileSize limit): 413 SVC-SYS-3001 once the request is read to its end,
 * and the staged bytes removed. So is a part over one of the tenant's caps (`capsOf`): from there
 * on its bytes are read and dropped, and the cap's error answers. Any failure — a malformed form, a
 * second file, the client gone midway — removes the staged bytes before the error goes on.
 */
export async function receiveUpload(req: IncomingMessage, staged: StagedUpload, maxBytes: number, capsOf?: CapsOf): Promise<ReceivedUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) throw new DomainError('SVC-SYS-2001', 'upload.notMultipart');
  let form: busboy.Busboy;
  try {
    // file names are UTF-8 (RFC 7578 §4.2; busboy's default is latin1)
    // busboy stops a file on reaching its fileSize: one byte past the limit, so a file of exactly maxBytes is kept
    form = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: maxBytes + 1, fields: 20, fieldSize: 4096, parts: 30 } });
  } catch {
    throw new DomainError('SVC-SYS-2001', 'upload.notMultipart');
  }

  const fields = new Map<string, string>();
  let refusal: DomainError | undefined;
  const refuse = (error: DomainError) => (refusal ??= error);
  let file: { stream: Readable; written: Promise<void>; name: string; partType: string } | undefined;
  let tooLarge = false;
  let overCap: DomainError | undefined;
  let capsFailure: { error: unknown } | undefined;
  let size = 0;
  let abandoned = false;
  const hash = createHash('sha256');
  const head = Buffer.alloc(SNIFF_BYTES);

  form.on('field', (name, value, info) => {
    if (!isFormField(name)) refuse(invalidField(name, 'field.unknown'));
    else if (fields.has(name) || info.valueTruncated) refuse(invalidField(name));
    else fields.set(name, value);
  });
  form.on('file', (name, stream, info) => {
    // From its creation: busboy errors a part's stream when the form breaks off inside it (no closing
    // boundary, a body cut short), which may happen while the caps are still asked below, before the
    // pipeline listens. An 'error' without a listener would end the process; the form's own 'error'
    // answers the request (400), so the part's is only kept from becoming uncaught.
    stream.on('error', () => undefined);
    if (name !== 'file' || file) {
      refuse(name === 'file' ? invalidField('file') : invalidField(name, 'field.unknown'));
      stream.resume();
      return;
    }
    stream.on('limit', () => (tooLarge = true));
    const written = (capsOf ? capsOf(new Map(fields)) : Promise.resolve([])).then(
      (caps) => {
        // the form failed while the caps were asked: no temporary file is made for a part already gone
        if (abandoned || stream.destroyed) throw new Error('upload abandoned');
        const meter = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            // over a cap: the rest is read and dropped, so that the client gets the answer
            if (overCap) return done();
            const over = caps.find((cap) => size + chunk.length > cap.bytes);
            if (over) {
              overCap = over.error();
              return done();
            }
            if (size < SNIFF_BYTES) chunk.copy(head, size, 0, Math.min(chunk.length, SNIFF_BYTES - size));
            size += chunk.length;
            hash.update(chunk);
            done(null, chunk);
          },
        });
        // the store reads the meter (a file, a multipart upload); a failure of either side fails both
        return Promise.all([pipeline(stream, meter), staged.write(meter)]).then(() => undefined);
      },
      (error: unknown) => {
        // the caps were refused (a tenant the caller may not name) or could not be read: the part is dropped
        capsFailure = { error };
        stream.resume();
      },
    );
    written.catch(() => undefined);
    file = { stream, written, name: info.filename ?? '', partType: info.mimeType };
  });
  for (const limit of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const) form.on(limit, () => refuse(invalidField('file')));

  const read = new Promise<void>((resolve, reject) => {
    form.on('close', resolve);
    form.on('error', () => reject(new DomainError('SVC-SYS-2001', 'upload.notMultipart')));
    // the client went away before the whole request arrived: nothing of it is kept
    req.on('close', () => (req.complete ? undefined : reject(new Error('upload cut off'))));
    req.on('error', reject);
  });
  req.pipe(form);

  try {
    await read;
    if (!file) throw refusal ?? invalidField('file', 'field.required');
    await file.written;
    if (capsFailure) throw capsFailure.error;
    if (tooLarge) throw new DomainError('SVC-SYS-3001', 'upload.tooLarge');
    if (overCap) throw overCap;
    if (refusal) throw refusal;
    const originalFileName = originalNameOf(file.name);
    return {
      staged,
      originalFileName,
      fileSize: size,
      checksum: hash.digest('hex'),
      mimeType: await storedMimeType(head.subarray(0, Math.min(size, SNIFF_BYTES)), file.partType),
      fields,
    };
  } catch (error) {
    abandoned = true;
    req.unpipe(form);
    file?.stream.destroy();
    await file?.written.catch(() => undefined);
    await staged.discard();
    throw error;
  }
}
