import { isIP } from 'node:net';
import IPCIDR from 'ip-cidr';

const IPV4_MAPPED = new IPCIDR('::ffff:0:0/96');

/**
 * Whom a limit counts: an IPv4 address as is, an IPv4-mapped IPv6 address as its IPv4 address, any
 * other IPv6 address by its /64 (one host usually holds a whole /64 and could otherwise spread its
 * requests over 2^64 addresses).
 */
export function clientKey(ip: string): string {
  // The common case first, without parsing: Node reports an IPv4 client of a dual-stack socket
  // as the dotted ::ffff:a.b.c.d, whose IPv4 part is already in its canonical form.
  if (ip.length > 7 && ip.slice(0, 7).toLowerCase() === '::ffff:' && isIP(ip.slice(7)) === 4) return ip.slice(7);
  if (isIP(ip) !== 6) return ip;
  try {
    const address = IPCIDR.createAddress(ip); // reads the dotted ::ffff:a.b.c.d as the IPv4 address
    if (!('to4' in address)) return address.correctForm();
    if (IPV4_MAPPED.contains(address)) return address.to4().correctForm();
    return `${new IPCIDR(`${address.correctForm()}/64`).start<IPCIDR.Address>({ type: 'addressObject' }).correctForm()}/64`;
  } catch {
    return ip;
  }
}
