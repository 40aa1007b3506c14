import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The prefix of the gateway's own credential: no JWT starts so (a JWT's header is base64url JSON, `eyJ`). */
export const GATEWAY_CALL_PREFIX = 'svcgw_';

/** What the key derivation is for: a credential derived for another purpose never equals this one. */
const PURPOSE = 'platform/gateway call/v1';

/**
 * The gateway's credential for the calls it makes as itself (a login, the session check, sessions
 * seen, the operator paths once the API key is checked, its exception entries): `svcgw_` and
 * HMAC-SHA256 of a fixed purpose under GATEWAY_CALL_KEY, a secret only the gateway and core-svc hold
 * (docs/adr/0139-the-gateway-s-own-credentials.md). It is not JWT_SECRET and mints nothing: a service
 * accepts it only for the RPCs listed as the gateway's own (libs/contracts/src/core/gateway-calls.ts),
 * never as the internal credential the services present to each other, and never as a user.
 *
 * @example
 * const key = new GatewayCallKey(config.gatewayCallKey);
 * toMetadata({ token: key.credential, lang: 'en' }) // the gateway
 * key.matches(token)                                 // core-svc: true for the gateway's credential
 */
export class GatewayCallKey {
  readonly credential: string;
  readonly #digest: Buffer;

  constructor(key: string) {
    this.credential = GATEWAY_CALL_PREFIX + createHmac('sha256', Buffer.from(key, 'utf8')).update(PURPOSE).digest('base64url');
    this.#digest = digestOf(this.credential);
  }

  /** Whether `token` is the credential, in time independent of how much of it is right (both are hashed to one length first). */
  matches(token: string): boolean {
    return token.startsWith(GATEWAY_CALL_PREFIX) && timingSafeEqual(digestOf(token), this.#digest);
  }
}

function digestOf(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
