/**
 * The name lookup of every webhook connection (docs/adr/0081-webhook-targets-ssrf-and-redirects.md): it resolves the host
 * and refuses when an address it found is one a webhook may not reach, so the address connected to
 * is the address checked and a name that resolved to a public address at create (DNS rebinding)
 * gains nothing.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { LookupFunction } from 'node:net';
import type { WebhookSettings } from '../config.ts';
import { isMetadataHost, refusalOf } from './target-address.ts';

/** The error of a refused target; its message says which address and why. */
export class RefusedTarget extends Error {
  override name = 'RefusedTarget';
}

export function guardedLookup(settings: Pick<WebhookSettings, 'allowPrivateTargets' | 'allowLoopbackTargets'>): LookupFunction {
  return ((hostname: string, options: { all?: boolean; family?: number }, callback: (...args: unknown[]) => void) => {
    if (isMetadataHost(hostname)) return callback(new RefusedTarget(`target refused: ${hostname} is a cloud metadata service`));
    dnsLookup(hostname, { family: options.family ?? 0, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error);
      const refusal = addresses.map((entry) => refusalOf(entry.address, settings)).find((reason) => reason !== undefined);
      if (refusal !== undefined || addresses.length === 0) return callback(new RefusedTarget(`target refused: ${refusal ?? `${hostname} has no address`}`));
      const [first] = addresses as [LookupAddress];
      return options.all ? callback(null, addresses) : callback(null, first.address, first.family);
    });
  }) as unknown as LookupFunction;
}
