import { ConfigError } from './config-error.ts';

/** The environment a configuration is read from (`process.env`, or a test's own). */
export type Env = Record<string, string | undefined>;

/** A whole number from `min` to `max`; unset or empty: `fallback`. Anything else refuses the start, naming the variable. */
export function int(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not ${raw}`);
  }
  return value;
}

/** `true`/`1` or `false`/`0`, in any case; unset or empty: `fallback`. */
export function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, not ${raw}`);
}

/** A number from 0 to 1; unset or empty: `fallback`. */
export function score(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError(`${name} must be a number from 0 to 1, not ${raw}`);
  return value;
}

/** A key prefix: 1 to 64 letters, digits or `_ . : -`; unset or empty: `fallback`. */
export function keyPrefix(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[\w.:-]{1,64}$/.test(raw)) throw new ConfigError(`${name} must be 1 to 64 letters, digits or _ . : -, not ${raw}`);
  return raw;
}

/** A comma list, each item trimmed, empty items left out. */
export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

/** The port of a `host:port` address. */
export function portOf(address: string): number {
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  if (!Number.isInteger(port)) throw new ConfigError(`no port in ${address}`);
  return port;
}
