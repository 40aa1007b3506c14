import type { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { INTERNAL_CALLS } from '@platform/contracts/core/internal-calls.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import type { Backends } from '../backends.ts';

/**
 * Whether a user token verifies (core-svc checks its signature: the gateway holds no signing key)
 * and is still live: its user exists, is active and has the token's
 * tokenVersion, and its session (sid) is that user's, open and unexpired. Asked of core-svc
 * (SessionService.CheckSession, under the gateway's own credential, libs/kit/src/auth/gateway-call-key.ts), which answers with the
 * very check every service makes of every call it serves; the gateway itself holds no database
 * credential. Asked before an answer the gateway gives itself on a JWT path and before the upload's
 * idle limit (http/context.ts sessionIsLive), so that change-password, logout and an ended session
 * refuse the very next request wherever it is sent (docs/interface.md#token-and-cookie,
 * docs/adr/0038-where-a-token-s-session-is-checked.md).
 *
 * A check core-svc could not answer (unreachable, past its deadline) rejects; the caller decides.
 *
 * @example
 * const check = new SessionCheck(backends, gatewayKey);
 * await check.isLive(token) // false → 401 SVC-SYS-1001
 */
export class SessionCheck {
  readonly #backends: Backends;
  readonly #key: GatewayCallKey;

  constructor(backends: Backends, key: GatewayCallKey) {
    this.#backends = backends;
    this.#key = key;
  }

  async isLive(token: string): Promise<boolean> {
    const metadata = toMetadata({ token: this.#key.credential, lang: 'en' });
    const { service, method } = INTERNAL_CALLS.checkSession;
    const answer = await this.#backends.call(service, method, { token }, metadata);
    return answer.live;
  }
}
