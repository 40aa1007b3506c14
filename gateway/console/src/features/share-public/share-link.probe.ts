/**
 * What the recipient's page learns of a share link without spending a download
 * (docs/interface.md#share-links): a HEAD of the public path answers the download's headers (the
 * file's name and size) and counts nothing; 401 means a password is needed, 410 the link expired,
 * was deactivated or used up, 404 it is unknown. The password is checked by validate-password (through
 * the typed client, without the session's cookie), whose signed downloadUrl is probed the same way.
 */
import { platform } from '../../shell/api.ts';
import { fileNameOf } from './content-disposition.ts';

export type ShareState =
  | { kind: 'ready'; href: string; name: string | undefined; size: number | undefined }
  | { kind: 'password' }
  | { kind: 'gone' }
  | { kind: 'unknown' }
  | { kind: 'busy' }
  | { kind: 'failed'; status: number; message?: string };

export function publicPath(token: string): string {
  return `/api/dms-share-link/public/${encodeURIComponent(token)}`;
}

/** HEAD `href`: the file's name and size, or why it cannot be downloaded. */
export async function probe(href: string, language: string): Promise<ShareState> {
  const response = await fetch(href, { method: 'HEAD', headers: { 'Accept-Language': language }, credentials: 'omit' });
  if (response.ok) {
    const length = response.headers.get('Content-Length');
    return { kind: 'ready', href, name: fileNameOf(response.headers.get('Content-Disposition')), size: length === null ? undefined : Number(length) };
  }
  return refusalState(response.status);
}

/** The state a refused answer means: 401 a password, 410 gone, 404 unknown, else a failure. */
export function refusalState(status: number, message?: string): ShareState {
  if (status === 401) return { kind: 'password' };
  if (status === 410) return { kind: 'gone' };
  if (status === 404) return { kind: 'unknown' };
  return { kind: 'failed', status, message };
}

export type PasswordAnswer = { ok: true; state: ShareState } | { ok: false; wrong: boolean; status: number; message?: string };

/** POST validate-password; a right password answers the signed URL's state, a wrong one the platform's message. */
export async function checkPassword(token: string, password: string, language: string): Promise<PasswordAnswer> {
  const { data, error, response } = await platform.POST('/api/dms-share-link/public/{token}/validate-password', {
    params: { path: { token } },
    body: { password },
    headers: { 'Accept-Language': language },
    credentials: 'omit',
  });
  if (response.ok && data?.downloadUrl) return { ok: true, state: await probe(data.downloadUrl, language) };
  const message = typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : undefined;
  return { ok: false, wrong: response.status === 403, status: response.status, message };
}
