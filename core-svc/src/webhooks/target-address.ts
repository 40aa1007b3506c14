/**
 * Which addresses a webhook may reach (docs/adr/0081-webhook-targets-ssrf-and-redirects.md): public unicast ones; loopback
 * under APP_ENV=development or with WEBHOOK_ALLOW_PRIVATE_TARGETS; private ones with the latter only;
 * link-local, cloud metadata, site-local, IPv4-compatible, multicast, unspecified and reserved ones
 * never. The ranges are ipaddr.js's, not written here; the metadata services are listed below.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import type { WebhookSettings } from '../config.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';

type Settings = Pick<WebhookSettings, 'allowPrivateTargets' | 'allowLoopbackTargets'>;

/**
 * Cloud metadata and platform services, refused under every setting, private targets allowed or
 * not: they hand out credentials to whoever asks from inside. By address, normalized below.
 */
const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Hetzner, Oracle: the instance metadata service
  '169.254.170.2', // AWS ECS: task metadata and credentials
  'fd00:ec2::254', // AWS: the instance metadata service over IPv6
  'fd20:ce::254', // GCP: the metadata server over IPv6
  '100.100.100.200', // Alibaba Cloud: the instance metadata service
  '168.63.129.16', // Azure: the wireserver (agent, health probes, DNS), a public address
  '169.254.0.23', // Tencent Cloud: the instance metadata service
  '192.0.0.192', // Oracle Cloud: the legacy instance metadata service
].map((address) => ipaddr.parse(address).toNormalizedString());

/** The same services by name: refused before any lookup, whatever they resolve to. */
const METADATA_HOSTS = new Set([
  'metadata.google.internal', // GCP
  'metadata.goog', // GCP
  'metadata', // GCP's short name inside an instance
  'instance-data', // AWS's name inside an instance
  'instance-data.ec2.internal', // AWS
  'metadata.tencentyun.com', // Tencent Cloud
]);

/** Whether `host` (a name, not an address) names a cloud metadata service. */
export function isMetadataHost(host: string): boolean {
  return METADATA_HOSTS.has(host.toLowerCase().replace(/\.$/, ''));
}

/** Why `address` may not be reached, or undefined when it may. */
export function refusalOf(address: string, settings: Settings): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is no IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.includes(parsed.toNormalizedString())) return `${address} is a cloud metadata address`;
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6') {
    const parts = (parsed as ipaddr.IPv6).parts;
    // ::a.b.c.d, IPv4-compatible (deprecated by RFC 4291): refused, not judged by its IPv4 address
    if (parts.slice(0, 6).every((part) => part === 0)) return `${address} is an IPv4-compatible address`;
    // fec0::/10, site-local (deprecated by RFC 3879): an internal network's, ipaddr.js has no range for it
    if (((parts[0] ?? 0) & 0xffc0) === 0xfec0) return `${address} is a site-local address`;
  }
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
      // linkLocal (169.254/16, fe80::/10), multicast, unspecified, reserved, 6to4, Teredo, NAT64…
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
  if (isMetadataHost(host)) throw invalidField('url', 'webhook.target');
  let addresses: string[];
  try {
    addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  } catch {
    throw invalidField('url', 'webhook.target');
  }
  if (addresses.length === 0 || addresses.some((address) => refusalOf(address, settings) !== undefined)) throw invalidField('url', 'webhook.target');
}
