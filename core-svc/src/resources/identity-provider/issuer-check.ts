import type { AppEnv } from '@platform/kit/config/config.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * An identity provider's issuer, checked: an absolute https URL without credentials, query or
 * fragment; plain http only for a loopback host outside production (a provider started beside the
 * platform for development and tests). Anything else is 400 SVC-SYS-2001 naming `issuer`.
 *
 * @example
 * checkedIssuer('https://login.example.com', 'production') // 'https://login.example.com'
 * checkedIssuer('http://127.0.0.1:4000', 'production')     // throws
 */
export function checkedIssuer(issuer: string, appEnv: AppEnv): string {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw invalidField('issuer', 'field.invalid');
  }
  const plainAllowed = url.protocol === 'http:' && LOOPBACK.has(url.hostname) && appEnv !== 'production';
  if ((url.protocol !== 'https:' && !plainAllowed) || url.username || url.password || url.search || url.hash) throw invalidField('issuer', 'field.invalid');
  return issuer;
}

/** Whether requests to this issuer may go over plain http (checkedIssuer allowed it). */
export function isPlainHttp(issuer: string): boolean {
  return issuer.startsWith('http:');
}
