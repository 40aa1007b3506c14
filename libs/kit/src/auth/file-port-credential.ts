import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The request header that carries the gateway's credential to dms-svc's file port. */
export const FILE_PORT_CREDENTIAL_HEADER = 'x-platform-file-credential';

/** What the key derivation is for: a credential derived for another purpose never equals this one. */
const PURPOSE = 'platform/dms-svc file port/v1';

/**
 * The credential of the gateway on dms-svc's file port (DMS_HTTP_ADDR): HMAC-SHA256 of a fixed
 * purpose under JWT_SECRET, base64url. Every process that holds JWT_SECRET can compute it, as it can
 * mint the internal gRPC credential; but it grants only the file port, and the internal token (which
 * grants every internal RPC) never travels on that hop, so neither is worth more for the other's loss.
 * A static value rather than a short-lived token: the file port checks it on every request before
 * anything else, with one hash and a constant-time compare, and a change of JWT_SECRET changes it.
 *
 * @example
 * const credential = new FilePortCredential(config.jwtSecret);
 * headers[FILE_PORT_CREDENTIAL_HEADER] = credential.value;   // the gateway
 * credential.matches(req.headers[FILE_PORT_CREDENTIAL_HEADER]) // dms-svc: true
 */
export class FilePortCredential {
  readonly value: string;
  readonly #digest: Buffer;

  constructor(jwtSecret: string) {
    this.value = createHmac('sha256', Buffer.from(jwtSecret, 'utf8')).update(PURPOSE).digest('base64url');
    this.#digest = digestOf(this.value);
  }

  /**
   * Whether a request's header value is the credential, in time independent of how much of it is
   * right: both sides are hashed to one length first, so neither the value nor its length leaks. A
   * missing or repeated header is not.
   */
  matches(header: string | string[] | undefined): boolean {
    if (typeof header !== 'string') return false;
    return timingSafeEqual(digestOf(header), this.#digest);
  }
}

function digestOf(text: string): Buffer {
  return createHash('sha256').update(text, 'latin1').digest();
}
