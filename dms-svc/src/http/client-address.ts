import type { IncomingMessage } from 'node:http';

/** Who a byte request came from, as audit rows keep it. */
export interface ClientAddress {
  ipAddress: string | null;
  userAgent: string | null;
}

/**
 * The client of a request the gateway proxied, as far as the gateway can prove it: the gateway
 * replaces X-Forwarded-For with the one address its IP filter judged (express's `req.ip`: the
 * socket's peer, or TRUST_PROXY hops back through proxies it trusts), so the header's last entry is
 * taken and nothing a client wrote survives the gateway. Without the header (a request that did not
 * come through the gateway) it is the socket's peer. Anyone who reaches DMS_HTTP_ADDR directly could
 * still write the header, so that address must be reachable by the gateway only (docs/adr/0034-client-address-of-byte-requests.md);
 * the credentials (token, signature) are proven here regardless, only the audit's address depends
 * on it. The User-Agent is what the client says it is; both are cut to their columns' lengths.
 */
export function clientAddressOf(req: IncomingMessage): ClientAddress {
  const header = req.headers['x-forwarded-for'];
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((hop) => hop.trim())
    .filter((hop) => hop !== '');
  const ip = hops.at(-1) ?? req.socket.remoteAddress;
  const agent = req.headers['user-agent'];
  return { ipAddress: ip ? ip.slice(0, 64) : null, userAgent: agent ? agent.slice(0, 1000) : null };
}
