import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The request header that carries the gateway's credential to dms-svc's file port. */
export const FILE_PORT_CREDENTIAL_HEADER = 'x-platform-file-credential';

/** What the key derivation is for: a credential derived for another purpose never equals this one. */
const PURPOSE = 'platform/dms-svc file port/v1';

/**
 * The credential of the gateway on dms-svc's file port (DMS_HTTP_ADDR): HMAC-SHA256 of a fixed
 * purpose under DMS_FILE_PORT_SECRET, base64url, a secret only the gateway and dms-svc hold
 * (docs/adr/0139-the-gateway-s-own-credentials.md). It grants only the file port, where every
 * request still proves its user's token itself, so its holder can act as no user.
 * A static value rather than a short-lived token: the file port checks it on every request before
 * anything else, with one hash and a constant-time compare, and a change of the secret changes it.
 *
 * @example
 * const credential = new FilePortCredential(config.dmsFilePortSecret);
 * headers[FILE_PORT_CREDENTIAL_HEADER] = credential.value;   // the gateway
 * credential.matches(req.headers[FILE_PORT_CREDENTIAL_HEADER]) // dms-svc: true
 */
export class FilePortCredential {
  readonly value: string;
  readonly #digest: Buffer;

  constructor(secret: string) {
    this.value = createHmac('sha256', Buffer.from(secret, 'utf8')).update(PURPOSE).digest('base64url');
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
