import { isAbsolute } from 'node:path';
import { ConfigError } from './config-error.ts';

/** clamd's own default TCP port (clamd.conf `TCPSocket`). */
export const DEFAULT_CLAMD_PORT = 3310;

/** Where clamd listens: a TCP host and port, or a unix socket's path. */
export type ClamdAddress = { kind: 'tcp'; host: string; port: number } | { kind: 'unix'; path: string };

/** How dms-svc scans uploads with clamd (docs/adr/0095-virus-scanning-in-storeupload-before.md). */
export interface ClamdSettings {
  /** CLAMD_ADDRESS: `tcp://host:port` (port 3310 when left out) or `unix:/absolute/path/clamd.sock`. */
  address: ClamdAddress;
  /** CLAMD_TIMEOUT_MS: the longest one scan may take, from connecting to clamd's answer (default 60 s). */
  timeoutMs: number;
  /** CLAMD_FAIL_OPEN: store an upload unscanned when clamd cannot answer (never in production). */
  failOpen: boolean;
}

/**
 * The scanning settings, or undefined when CLAMD_ADDRESS is unset (no scanning). A malformed address,
 * timeout or switch refuses the start, naming the variable; so do CLAMD_TIMEOUT_MS and
 * CLAMD_FAIL_OPEN without an address, which would otherwise be read as scanning that is not there.
 *
 * @example
 * readClamd({ CLAMD_ADDRESS: 'tcp://clamav:3310' }) // { address: { kind: 'tcp', host: 'clamav', port: 3310 }, timeoutMs: 60000, failOpen: false }
 * readClamd({ CLAMD_ADDRESS: 'unix:/run/clamav/clamd.sock' }).address // { kind: 'unix', path: '/run/clamav/clamd.sock' }
 */
export function readClamd(env: Record<string, string | undefined>): ClamdSettings | undefined {
  const raw = env.CLAMD_ADDRESS;
  if (raw === undefined || raw === '') {
    for (const name of ['CLAMD_TIMEOUT_MS', 'CLAMD_FAIL_OPEN']) {
      if (env[name]) throw new ConfigError(`${name} is set but CLAMD_ADDRESS is not: set the address of clamd, or unset ${name}`);
    }
    return undefined;
  }
  return { address: parseClamdAddress(raw), timeoutMs: timeoutOf(env.CLAMD_TIMEOUT_MS), failOpen: failOpenOf(env.CLAMD_FAIL_OPEN) };
}

/**
 * CLAMD_ADDRESS read: `tcp://host:port` (a name, an IPv4 address or a bracketed IPv6 one; the port
 * 1..65535, 3310 when left out) or `unix:/absolute/path`.
 *
 * @example
 * parseClamdAddress('tcp://[::1]:3310') // { kind: 'tcp', host: '::1', port: 3310 }
 */
export function parseClamdAddress(raw: string): ClamdAddress {
  const refuse = (why: string) =>
    new ConfigError(`CLAMD_ADDRESS must be tcp://host:port or unix:/absolute/path/clamd.sock (${why}), not ${JSON.stringify(raw.slice(0, 200))}`);
  if (raw.startsWith('unix:')) {
    const path = raw.slice('unix:'.length);
    if (!isAbsolute(path) || path.includes('\0')) throw refuse('a unix socket needs an absolute path');
    return { kind: 'unix', path };
  }
  if (!raw.startsWith('tcp://')) throw refuse('unknown scheme');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse('no host, or a port past 65535');
  }
  if (url.hostname === '' || url.username || url.password || (url.pathname !== '' && url.pathname !== '/') || url.search || url.hash) {
    throw refuse('only a host and a port');
  }
  if (url.port === '0') throw refuse('the port must be 1 to 65535');
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { kind: 'tcp', host, port: url.port === '' ? DEFAULT_CLAMD_PORT : Number(url.port) };
}

function timeoutOf(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 60_000;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 100 || value > 3_600_000)
    throw new ConfigError(`CLAMD_TIMEOUT_MS must be a whole number from 100 to 3600000, not ${raw}`);
  return value;
}

function failOpenOf(raw: string | undefined): boolean {
  const value = raw?.toLowerCase();
  if (value === undefined || value === '' || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ConfigError(`CLAMD_FAIL_OPEN must be true or false, not ${raw}`);
}

/** The address as CLAMD_ADDRESS writes it, for logs. */
export function clamdAddressText(address: ClamdAddress): string {
  return address.kind === 'unix' ? `unix:${address.path}` : `tcp://${address.host.includes(':') ? `[${address.host}]` : address.host}:${address.port}`;
}
