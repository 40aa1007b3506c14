import type { ServiceName } from './platform-layout.ts';

type Env = Record<string, string | undefined>;

/**
 * What each process is not handed of the platform's environment: the gateway gets no DATABASE_URL
 * (nor DATABASE_OWNER_URL),
 * since it reads no table and asks core-svc whatever it must know of a session
 * (docs/adr/0038-where-a-token-s-session-is-checked.md), and no JWT_SECRET, since it verifies no
 * signature and mints no token (docs/adr/0138-an-edge-without-the-signing-secret.md). Each secret of
 * its own goes to the processes that use it alone (docs/adr/0139-the-gateway-s-own-credentials.md):
 * GATEWAY_CALL_KEY to the gateway and core-svc, CONSOLE_CSRF_SECRET to the gateway,
 * DMS_FILE_PORT_SECRET to the gateway and dms-svc.
 */
const WITHHELD: Readonly<Record<ServiceName, readonly string[]>> = {
  'core-svc': ['CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET'],
  'bpm-svc': ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET'],
  'dms-svc': ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET'],
  gateway: ['DATABASE_URL', 'DATABASE_OWNER_URL', 'JWT_SECRET'],
  // a worker gets what its service gets
  'core-worker': ['CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET'],
  'bpm-worker': ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET'],
  'dms-worker': ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET'],
};

/**
 * The environment process `name` is started with: the platform's, less what it is not handed.
 *
 * @example
 * childEnv('gateway', { DATABASE_URL: 'postgres://…', JWT_SECRET: '…', GATEWAY_PORT: '8080' }) // { GATEWAY_PORT: '8080' }
 */
export function childEnv(name: ServiceName, env: Env): Env {
  const withheld = WITHHELD[name];
  return Object.fromEntries(Object.entries(env).filter(([variable]) => !withheld.includes(variable)));
}
