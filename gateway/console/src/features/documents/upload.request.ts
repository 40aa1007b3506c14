/**
 * One file's upload (POST /api/dms-file/upload, docs/interface.md#files) by XMLHttpRequest, because
 * fetch reports no upload progress. The File goes into the FormData as it is, so the browser streams
 * it from disk: a file of hundreds of MB is never read into memory. The form's text fields come
 * before the file, so the service knows the tenant (its size limits) before the bytes arrive.
 */
import type { DmsFileUploaded } from '@platform/client/schema.d.ts';
import { ApiError, baseHeaders } from '../../shell/api.ts';

/** The upload's answer, as the API document gives it (a type-only import: no client code in the bundle). */
export type UploadedFile = DmsFileUploaded;

export interface UploadStart {
  file: File;
  /** The form's text fields (crProcessId, categoryId, entityType, entityId, description, tags); empty ones are left out. */
  fields: Readonly<Record<string, string>>;
  /** Sent as Idempotency-Key: a retry under the same key cannot store the file twice. */
  idempotencyKey: string;
  onProgress: (sent: number, total: number) => void;
}

export interface RunningUpload {
  done: Promise<UploadedFile>;
  /** Stops sending; `done` then rejects with an AbortError. */
  abort: () => void;
}

export function startUpload(start: UploadStart): RunningUpload {
  const xhr = new XMLHttpRequest();
  const done = new Promise<UploadedFile>((resolve, reject) => {
    xhr.open('POST', '/api/dms-file/upload');
    for (const [name, value] of Object.entries(baseHeaders())) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader('Idempotency-Key', start.idempotencyKey);
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => start.onProgress(event.loaded, event.lengthComputable ? event.total : start.file.size);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(JSON.parse(xhr.responseText) as UploadedFile);
      else reject(errorOfXhr(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, undefined, ''));
    xhr.onabort = () => reject(new DOMException('The upload was cancelled', 'AbortError'));
    const form = new FormData();
    for (const [name, value] of Object.entries(start.fields)) if (value !== '') form.append(name, value);
    form.append('file', start.file, start.file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** The platform's error (413 SVC-SYS-3001/3007, 415 SVC-SYS-3002...) from a failed upload's body. */
function errorOfXhr(xhr: XMLHttpRequest): ApiError {
  try {
    const body = JSON.parse(xhr.responseText) as { error_code?: string; message?: string; refId?: string };
    return new ApiError(xhr.status, body.error_code, body.message ?? xhr.statusText, body.refId);
  } catch {
    return new ApiError(xhr.status, undefined, xhr.statusText || String(xhr.status));
  }
}
