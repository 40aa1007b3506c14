/**
 * Which addresses a webhook may reach (docs/decisions.md "Webhooks"): public unicast ones; loopback
 * under APP_ENV=development or with WEBHOOK_ALLOW_PRIVATE_TARGETS; private ones with the latter only;
 * link-local, cloud metadata, multicast, unspecified and reserved ones never. The ranges are
 * ipaddr.js's, not written here.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { WebhookSettings } from '@platform/libs/config/config.ts';
import { invalidField } from '@platform/libs/errors/domain-error.ts';

type Settings = Pick<WebhookSettings, 'allowPrivateTargets' | 'allowLoopbackTargets'>;

/** Metadata services that sit outside the link-local range (AWS's IPv6 one). */
const METADATA = new Set(['fd00:ec2::254']);

/** Why `address` may not be reached, or undefined when it may. */
export function refusalOf(address: string, settings: Settings): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is no IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA.has(parsed.toNormalizedString()) || METADATA.has(parsed.toString())) return `${address} is a cloud metadata address`;
  const range = parsed.range();
  switch (range) {
    case 'unicast':
      return undefined;
    case 'loopback':
      return settings.allowLoopbackTargets ? undefined : `${address} is a loopback address`;
    case 'private':
    case 'uniqueLocal':
    case 'carrierGradeNat':
      return settings.allowPrivateTargets ? undefined : `${address} is a private address`;
    default:
      // linkLocal (169.254/16 with the metadata services, fe80::/10), multicast, unspecified, reserved…
      return `${address} is a ${range} address`;
  }
}

/**
 * Checks a subscription's url on create and update: an absolute http(s) URL without credentials
 * whose host resolves only to addresses it may reach (400 SVC-SYS-2001 naming `url`). The dispatcher
 * checks again the address it connects to (guarded-lookup.ts), so a name that resolves differently
 * later gains nothing.
 */
export async function checkTargetUrl(url: string, settings: Settings): Promise<void> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidField('url', 'webhook.url');
  }
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.username !== '' || parsed.password !== '' || parsed.hostname === '') {
    throw invalidField('url', 'webhook.url');
  }
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw invalidField('url', 'webhook.target');
  }
  if (addresses.length === 0 || addresses.some((address) => refusalOf(address, settings) !== undefined)) throw invalidField('url', 'webhook.target');
}
