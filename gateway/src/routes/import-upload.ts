import type { Request } from 'express';
import busboy from 'busboy';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';

/** A file uploaded for an import: its name, its bytes and the tenant the form names. */
export interface ImportUpload {
  fileName: string;
  bytes: Buffer;
  crProcessId: number;
}

/**
 * Reads an import's multipart form (docs/interface.md#import): one part `file` and a field
 * `crProcessId`, nothing else. A file over `maxBytes` is 413 SVC-SYS-3001 once the request is
 * read to its end (its bytes past the limit dropped as they come); a form that is not one, 400.
 */
export function readImportUpload(req: Request, maxBytes: number): Promise<ImportUpload> {
  const type = req.headers['content-type'] ?? '';
  if (!/^multipart\/form-data\s*;/i.test(type)) return Promise.reject(new DomainError('SVC-SYS-2001', 'upload.notMultipart'));
  let form: busboy.Busboy;
  try {
    form = busboy({ headers: req.headers, defParamCharset: 'utf8', limits: { files: 1, fileSize: maxBytes + 1, fields: 4, fieldSize: 64, parts: 6 } });
  } catch {
    return Promise.reject(new DomainError('SVC-SYS-2001', 'upload.notMultipart'));
  }
  return new Promise((resolve, reject) => {
    let refusal: DomainError | undefined;
    const refuse = (error: DomainError) => (refusal ??= error);
    let crProcessId: number | undefined;
    let fileName: string | undefined;
    const chunks: Buffer[] = [];
    let tooLarge = false;
    form.on('field', (name, value) => {
      if (name !== 'crProcessId') refuse(invalidField(name, 'field.unknown'));
      else if (!/^[1-9]\d{0,15}$/.test(value) || crProcessId !== undefined) refuse(invalidField('crProcessId'));
      else crProcessId = Number(value);
    });
    form.on('file', (name, stream, info) => {
      stream.on('error', () => undefined);
      if (name !== 'file' || fileName !== undefined) {
        refuse(name === 'file' ? invalidField('file') : invalidField(name, 'field.unknown'));
        stream.resume();
        return;
      }
      fileName = info.filename ?? 'import';
      stream.on('limit', () => (tooLarge = true));
      stream.on('data', (chunk: Buffer) => {
        if (!tooLarge) chunks.push(chunk);
      });
    });
    form.on('partsLimit', () => refuse(new DomainError('SVC-SYS-2001', 'upload.notMultipart')));
    form.on('filesLimit', () => refuse(invalidField('file')));
    form.on('fieldsLimit', () => refuse(new DomainError('SVC-SYS-2001', 'upload.notMultipart')));
    form.on('error', () => reject(new DomainError('SVC-SYS-2001', 'upload.notMultipart')));
    form.on('close', () => {
      if (tooLarge) return reject(new DomainError('SVC-SYS-3001', 'upload.tooLarge'));
      if (refusal) return reject(refusal);
      if (fileName === undefined) return reject(invalidField('file', 'field.required'));
      if (crProcessId === undefined) return reject(invalidField('crProcessId', 'field.required'));
      resolve({ fileName, bytes: Buffer.concat(chunks), crProcessId });
    });
    // a client that breaks off mid-upload: refused, never a promise left waiting
    req.on('error', () => reject(new DomainError('SVC-SYS-2001', 'upload.notMultipart')));
    req.pipe(form);
  });
}
