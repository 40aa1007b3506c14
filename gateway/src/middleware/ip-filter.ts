import { BlockList, isIP } from 'node:net';
import type { RequestHandler } from 'express';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { languageFromHeader } from '@platform/kit/i18n/messages.ts';
import { clientIp } from '../http/context.ts';

export interface IpFilterSettings {
  enabled: boolean;
  /** IPs and CIDRs, v4 and v6; when not empty, only its members get in. */
  allow: string[];
  /** IPs and CIDRs, v4 and v6; wins over `allow`. */
  deny: string[];
}

/**
 * The entries of IP_ALLOW or IP_DENY as a `net.BlockList`, which matches IPv4-mapped IPv6 addresses
 * (`::ffff:1.2.3.4`, in either spelling) against IPv4 entries and the other way round. An entry that
 * is neither an IP nor a CIDR is a ConfigError naming it, so the gateway refuses to start.
 *
 * @example
 * addressList('IP_DENY', ['10.0.0.0/8', '2001:db8::/32']).check('::ffff:10.1.2.3', 'ipv6') // true
 */
export function addressList(setting: string, entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    const [address = '', prefixText, extra] = entry.split('/');
    const family = isIP(address);
    const bits = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : Number.NaN;
    if (family === 0 || extra !== undefined || !(prefix <= bits)) {
      throw new ConfigError(`${setting} entry '${entry}' is not an IP address or CIDR (like 203.0.113.7, 10.0.0.0/8 or 2001:db8::/32)`);
    }
    list.addSubnet(address, prefix, family === 4 ? 'ipv4' : 'ipv6');
  }
  return list;
}

const BLOCKED = {
  en: 'Access from your address is not allowed',
  tr: 'Adresinizden erişime izin verilmiyor',
};

/**
 * Step 1 of the filter chain (docs/interface.md#filter-chain): the client address (the socket's, or the
 * one TRUST_PROXY hops back in X-Forwarded-For, as express's `trust proxy` computes `req.ip`) is
 * refused with 403 `{status: "ERROR", message}` (no error_code, docs/interface.md#errors) when a deny entry
 * holds it, or when the allow list is not empty and no entry of it does. The lists are checked at
 * creation even when the filter is off, so a typo never waits for the day it is switched on.
 */
export function ipFilter(settings: IpFilterSettings): RequestHandler {
  const allow = addressList('IP_ALLOW', settings.allow);
  const deny = addressList('IP_DENY', settings.deny);
  const allowAll = settings.allow.length === 0;
  if (!settings.enabled) return (_req, _res, next) => next();
  return (req, res, next) => {
    const ip = clientIp(req);
    const version = isIP(ip);
    const family = version === 4 ? 'ipv4' : 'ipv6';
    // No readable address (a socket already gone) is refused too: the filter fails closed.
    if (version !== 0 && !deny.check(ip, family) && (allowAll || allow.check(ip, family))) return next();
    const lang = languageFromHeader(req.headers['accept-language']) ?? 'en';
    res.status(403).setHeader('Cache-Control', 'no-store').json({ status: 'ERROR', message: BLOCKED[lang] });
  };
}
