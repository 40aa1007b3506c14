import { isIP } from 'node:net';
import { ConfigError } from './config-error.ts';

/** The interface internal ports bind when INTERNAL_LISTEN_HOST is unset: this machine only. */
export const DEFAULT_INTERNAL_LISTEN_HOST = '127.0.0.1';

/**
 * The interface every internal port binds (INTERNAL_LISTEN_HOST): each service's gRPC and metrics
 * ports, dms-svc's file port and the gateway's management port. The hosts of `*_GRPC_ADDR` and
 * DMS_HTTP_ADDR say where the others dial, and in a cluster they name a Service, which is no local
 * interface; so the listening side has a setting of its own, an IP address: `127.0.0.1` (the
 * default, `npm start` on one machine) or `0.0.0.0` / `::` in a pod, whose network policy fences it.
 * Anything else refuses the start.
 *
 * @example
 * readListenHost({}) // '127.0.0.1'
 * readListenHost({ INTERNAL_LISTEN_HOST: '0.0.0.0' }) // '0.0.0.0'
 */
export function readListenHost(env: Record<string, string | undefined>): string {
  const host = env.INTERNAL_LISTEN_HOST || DEFAULT_INTERNAL_LISTEN_HOST;
  if (isIP(host) === 0) throw new ConfigError(`INTERNAL_LISTEN_HOST must be an IP address (127.0.0.1, 0.0.0.0, ::), not ${JSON.stringify(host.slice(0, 100))}`);
  return host;
}

/**
 * `host:port` as gRPC's bind and a URL's authority write it (an IPv6 host in brackets).
 *
 * @example
 * hostPort('::1', 50053) // '[::1]:50053'
 */
export function hostPort(host: string, port: number): string {
  return isIP(host) === 6 ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * An address on this machine at which a port bound to `host` is reached: loopback for a wildcard
 * (`0.0.0.0`, `::`), else the host itself. What a process reports to its launcher.
 *
 * @example
 * localAddress('0.0.0.0', 9103) // '127.0.0.1:9103'
 */
export function localAddress(host: string, port: number): string {
  if (host === '0.0.0.0') return `127.0.0.1:${port}`;
  if (host === '::') return `[::1]:${port}`;
  return hostPort(host, port);
}
