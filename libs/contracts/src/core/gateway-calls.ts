import { ExceptionLogServiceService } from '@platform/kit/gen/platform/core/v1/exception_log.ts';
import { AUTH_OPERATIONS } from './auth.ts';
import { INTERNAL_CALLS } from './internal-calls.ts';
import { OIDC_OPERATIONS } from './oidc.ts';
import { SECOND_FACTOR_OPERATIONS } from './second-factor.ts';
import { SESSION_OPERATIONS } from './sessions.ts';

/**
 * The RPCs (gRPC paths) the gateway makes as itself, under its own credential
 * (libs/kit/src/auth/gateway-call-key.ts), and the only ones core-svc serves to it
 * (docs/adr/0139-the-gateway-s-own-credentials.md): a login (the password proves the user) and its
 * second step (the challenge and the code prove it), single sign-on's public steps (the provider's
 * answer proves the user: its list of providers, the start and the callback), its
 * own calls (INTERNAL_CALLS), the operator paths it serves once the API key is checked
 * (SESSION_OPERATIONS: sessions and the exception log, which CORE_API_KEY opens anyway), and its
 * exception entries. None of them answers with a token for a user the caller did not prove; every
 * other RPC refuses that credential with 401 SVC-SYS-1001.
 *
 * @example
 * GATEWAY_CALLS.includes('/platform.core.v1.SessionService/CheckSession') // true
 */
export const GATEWAY_CALLS: readonly string[] = [
  AUTH_OPERATIONS.login.rpc.method.path,
  SECOND_FACTOR_OPERATIONS.loginSecondFactor.rpc.method.path,
  ...[OIDC_OPERATIONS.signInProviders, OIDC_OPERATIONS.startSignIn, OIDC_OPERATIONS.finishSignIn].map((operation) => operation.rpc.method.path),
  ...Object.values(INTERNAL_CALLS).map((call) => call.method.path),
  ...Object.values(SESSION_OPERATIONS).map((operation) => operation.rpc.method.path),
  ExceptionLogServiceService.recordException.path,
];
