/** tus 1.0.0 requests through the suite's gateway (docs/interface.md#files "Resumable uploads"). */
import { platform } from './platform.ts';

export const TUS = '/api/dms-file/tus';

export interface TusAnswer {
  status: number;
  headers: Headers;
  text: string;
  body: any;
}

/** One tus request with Tus-Resumable and the bearer token; `chunks` sends a body of unknown length (chunked transfer coding); the answer's JSON body when it has one. */
export async function tus(
  method: string,
  path: string,
  token: string,
  headers: Record<string, string> = {},
  body?: Uint8Array,
  chunks?: Uint8Array[],
): Promise<TusAnswer> {
  const response = await fetch(`${platform.url}${path}`, {
    method,
    headers: { 'tus-resumable': '1.0.0', authorization: `Bearer ${token}`, ...headers },
    ...(body ? { body } : {}),
    ...(chunks ? { body: ReadableStream.from(chunks), duplex: 'half' } : {}),
  });
  const text = await response.text();
  const json = text !== '' && response.headers.get('content-type')?.includes('application/json') ? JSON.parse(text) : undefined;
  return { status: response.status, headers: response.headers, text, body: json };
}

/** Upload-Metadata of `fields`: `key base64value` pairs. */
export const metadataOf = (fields: Record<string, string>) =>
  Object.entries(fields)
    .map(([key, value]) => `${key} ${Buffer.from(value, 'utf8').toString('base64')}`)
    .join(',');

/** A creation of `length` bytes for the tenant, `resumed.bin` unless `extra` names another file; `body` sends the first bytes with it. */
export function createUpload(
  token: string,
  crProcessId: number,
  length: number,
  extra: Record<string, string> = {},
  body?: Uint8Array,
  headers: Record<string, string> = {},
): Promise<TusAnswer> {
  return tus(
    'POST',
    TUS,
    token,
    {
      'upload-length': String(length),
      'upload-metadata': metadataOf({ filename: 'resumed.bin', crProcessId: String(crProcessId), ...extra }),
      ...(body ? { 'content-type': 'application/offset+octet-stream' } : {}),
      ...headers,
    },
    body,
  );
}

/** A PATCH of `bytes` at `offset`. */
export function patch(token: string, location: string, offset: number, bytes: Uint8Array, headers: Record<string, string> = {}): Promise<TusAnswer> {
  return tus('PATCH', location, token, { 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', ...headers }, bytes);
}
