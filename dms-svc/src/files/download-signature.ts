import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { DomainError } from '@platform/kit/errors/domain-error.ts';

/** A signed download URL and when it stops working. */
export interface SignedUrl {
  url: string;
  /** ISO 8601 UTC. */
  expiresAt: string;
}

/**
 * The download URL signer (docs/interface.md#files), the one module that signs and checks: the token is
 * base64url (no padding) of HMAC-SHA256, keyed with the UTF-8 bytes of DMS_URL_SECRET, over
 * `{id}:{expires}:{inline}` (`inline` is `true` or `false`; absent means `false`), followed by
 * `:{user}` when the URL names the user it was signed for (`user`, the userCode of who asked for it
 * through download-url, whom the download is audited as: docs/adr/0113-a-signed-url-names-who-asked.md).
 * The user is the message's last part, so a colon in it cannot make one message read as another.
 *
 * @example
 * const signer = new DownloadSigner(config.dmsUrlSecret);
 * signer.sign(42, 1_900_000_000, true).url // '/api/dms-file/download/42?token=...&expires=1900000000&inline=true'
 */
export class DownloadSigner {
  readonly #secret: Buffer;

  constructor(secret: string) {
    this.#secret = Buffer.from(secret, 'utf8');
  }

  token(id: number, expires: number, inline: boolean, user?: string): string {
    const message = `${id}:${expires}:${inline}${user === undefined ? '' : `:${user}`}`;
    return createHmac('sha256', this.#secret).update(message).digest('base64url');
  }

  /** The gateway-relative URL of file `id` that works until `expires` (Unix seconds), for `user` when given. */
  sign(id: number, expires: number, inline: boolean, user?: string): SignedUrl {
    const query = new URLSearchParams({ token: this.token(id, expires, inline, user), expires: String(expires), inline: String(inline) });
    if (user !== undefined) query.set('user', user);
    return { url: `/api/dms-file/download/${id}?${query.toString()}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /**
   * The token of a share link's password-validated URL: HMAC-SHA256 (the same key) over
   * `share:{linkToken}:{expires}:{stamp}`, where the stamp is the SHA-256 (base64url) of the link's
   * stored password hash. bcrypt salts every hash, so setting, replacing or clearing the password
   * changes the stamp and every URL validated before stops verifying (403 SVC-SYS-3003); the URL
   * carries neither the hash nor the stamp. The `share:` prefix keeps it apart from file tokens,
   * whose message starts with a number, so neither can be replayed as the other.
   */
  shareToken(linkToken: string, expires: number, passwordHash: string): string {
    const stamp = createHash('sha256').update(passwordHash).digest('base64url');
    return createHmac('sha256', this.#secret).update(`share:${linkToken}:${expires}:${stamp}`).digest('base64url');
  }

  /**
   * `/api/dms-share-link/public/{linkToken}?token=...&expires=...`, good until `expires` (Unix
   * seconds) while the link's password hash stays `passwordHash`.
   */
  signShare(linkToken: string, expires: number, passwordHash: string): SignedUrl {
    const query = new URLSearchParams({ token: this.shareToken(linkToken, expires, passwordHash), expires: String(expires) });
    return { url: `/api/dms-share-link/public/${linkToken}?${query.toString()}`, expiresAt: new Date(expires * 1000).toISOString() };
  }

  /**
   * Whether a share link's GET carries a signature of validatePassword: false when it carries
   * neither `token` nor `expires` (the password is then still to be validated); a changed, missing
   * or repeated one is 403 SVC-SYS-3003, a past `expires` 403 SVC-SYS-3004, as for file URLs. One
   * signed under an earlier password (`passwordHash` is the link's hash now) is a changed one.
   */
  verifyShare(linkToken: string, passwordHash: string, query: URLSearchParams, nowSeconds = Math.floor(Date.now() / 1000)): boolean {
    if (!query.has('token') && !query.has('expires')) return false;
    const token = query.getAll('token');
    const expiresText = query.getAll('expires');
    const invalid = () => new DomainError('SVC-SYS-3003', 'download.signature');
    if (token.length !== 1 || expiresText.length !== 1 || !/^\d{1,12}$/.test(expiresText[0] ?? '')) throw invalid();
    const expires = Number(expiresText[0]);
    if (String(expires) !== expiresText[0]) throw invalid();
    const expected = Buffer.from(this.shareToken(linkToken, expires, passwordHash), 'utf8');
    const given = Buffer.from(token[0] ?? '', 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    if (expires <= nowSeconds) throw new DomainError('SVC-SYS-3004', 'download.expired');
    return true;
  }

  /**
   * The file id, `inline` and `user` (undefined when the URL names none) of a download request, when
   * its signature holds: a changed or missing parameter (or one given twice, or an empty `user`) is
   * 403 SVC-SYS-3003; a past `expires` 403 SVC-SYS-3004. The token
   * is compared in constant time; expiry is checked only once the signature holds, so a forged
   * `expires` never learns more than 3003.
   */
  verify(idText: string, query: URLSearchParams, nowSeconds = Math.floor(Date.now() / 1000)): { id: number; inline: boolean; user?: string } {
    const one = (name: string): string | undefined => {
      const values = query.getAll(name);
      return values.length === 1 ? values[0] : undefined;
    };
    const token = one('token');
    const expiresText = one('expires');
    const inlineText = query.has('inline') ? one('inline') : 'false';
    const user = query.has('user') ? one('user') : undefined;
    const invalid = () => new DomainError('SVC-SYS-3003', 'download.signature');
    if (query.has('user') && !user) throw invalid();
    if (!/^[1-9]\d{0,15}$/.test(idText) || token === undefined || expiresText === undefined || !/^\d{1,12}$/.test(expiresText)) throw invalid();
    if (inlineText !== 'true' && inlineText !== 'false') throw invalid();
    const id = Number(idText);
    const expires = Number(expiresText);
    const inline = inlineText === 'true';
    if (!Number.isSafeInteger(id) || String(expires) !== expiresText) throw invalid();
    const expected = Buffer.from(this.token(id, expires, inline, user), 'utf8');
    const given = Buffer.from(token, 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
    if (expires <= nowSeconds) throw new DomainError('SVC-SYS-3004', 'download.expired');
    return user === undefined ? { id, inline } : { id, inline, user };
  }
}

/**
 * The expiry of the download URL a record carries (get, list, update): the end of the next
 * TTL-long window, so between one and two TTLs from now, and the same for every read within a
 * window. Two reads of an unchanged record are then equal, as lists must show records as get does.
 */
export function recordUrlExpiry(ttlSeconds: number, nowSeconds = Math.floor(Date.now() / 1000)): number {
  return (Math.floor(nowSeconds / ttlSeconds) + 2) * ttlSeconds;
}
