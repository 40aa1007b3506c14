import type { ServiceName } from './platform-layout.ts';

type Env = Record<string, string | undefined>;

/**
 * What each process is not handed of the platform's environment: the gateway gets no DATABASE_URL,
 * since it reads no table and asks core-svc whatever it must know of a session
 * (docs/adr/0038-where-a-token-s-session-is-checked.md).
 */
const WITHHELD: Readonly<Record<ServiceName, readonly string[]>> = {
  'core-svc': [],
  'bpm-svc': [],
  'dms-svc': [],
  gateway: ['DATABASE_URL'],
};

/**
 * The environment process `name` is started with: the platform's, less what it is not handed.
 *
 * @example
 * childEnv('gateway', { DATABASE_URL: 'postgres://…', GATEWAY_PORT: '8080' }) // { GATEWAY_PORT: '8080' }
 */
export function childEnv(name: ServiceName, env: Env): Env {
  const withheld = WITHHELD[name];
  return Object.fromEntries(Object.entries(env).filter(([variable]) => !withheld.includes(variable)));
}
