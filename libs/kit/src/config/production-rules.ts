import type { AppEnv } from './config.ts';
import { ConfigError } from './config-error.ts';

/**
 * What production refuses as weak even when it is set (docs/adr/0051-production-refuses-weak-settings.md): each entry
 * names the variable and says why, so the refusal can be fixed from the message alone. Each process
 * checks the settings it reads: a field it does not have is not checked.
 */

export const MIN_PRODUCTION_BCRYPT_ROUNDS = 10;
export const MIN_DMS_URL_SECRET_BYTES = 32;
/** How long a failing webhook delivery is retried at least, with every delay jittered 20 % short. */
export const MIN_WEBHOOK_RETRY_SPAN_MS = 24 * 3_600_000;

export interface ProductionSettings {
  cookieSecure?: boolean;
  bcryptRounds?: number;
  dmsUrlSecret?: string;
  allowedOrigins?: readonly string[];
  outboxDisabled?: boolean;
  webhooks?: { retryScheduleMs: readonly number[] };
  dms?: { clamd?: { failOpen: boolean } | undefined };
}

/** Throws one ConfigError naming every weak setting of a production process's configuration; elsewhere nothing. */
export function refuseWeakInProduction(config: ProductionSettings & { appEnv: AppEnv }): void {
  if (config.appEnv !== 'production') return;
  const weak = weakProductionSettings(config);
  if (weak.length > 0) throw new ConfigError(`production refuses ${weak.join('; ')}`);
}

/**
 * The weak settings among `settings`, one line each; none: production may start.
 *
 * @example
 * weakProductionSettings({ cookieSecure: false, bcryptRounds: 12, dmsUrlSecret: '…64 hex…', allowedOrigins: ['https://app.acme.com'], outboxDisabled: false, webhooks, dms: { clamd: undefined } })
 * // ['COOKIE_SECURE=false (the session cookie must be Secure)']
 */
export function weakProductionSettings(settings: ProductionSettings): string[] {
  const weak: string[] = [];
  if (settings.cookieSecure === false) weak.push('COOKIE_SECURE=false (the session cookie must be Secure)');
  if (settings.bcryptRounds !== undefined && settings.bcryptRounds < MIN_PRODUCTION_BCRYPT_ROUNDS) {
    weak.push(`BCRYPT_ROUNDS=${settings.bcryptRounds} (at least ${MIN_PRODUCTION_BCRYPT_ROUNDS})`);
  }
  const secretBytes = Buffer.byteLength(settings.dmsUrlSecret ?? '', 'utf8');
  if (settings.dmsUrlSecret !== undefined && secretBytes < MIN_DMS_URL_SECRET_BYTES) {
    weak.push(`DMS_URL_SECRET of ${secretBytes} byte${secretBytes === 1 ? '' : 's'} (at least ${MIN_DMS_URL_SECRET_BYTES}: openssl rand -hex 32)`);
  }
  const placeholders = (settings.allowedOrigins ?? []).flatMap((origin) => {
    const why = placeholderOrigin(origin);
    return why ? [`${origin} (${why})`] : [];
  });
  if (placeholders.length > 0) weak.push(`ALLOWED_ORIGINS ${placeholders.join(', ')}`);
  if (settings.dms?.clamd?.failOpen) weak.push('CLAMD_FAIL_OPEN=true (production scans fail closed: an upload clamd could not scan is refused)');
  if (settings.outboxDisabled) weak.push('OUTBOX_DISABLED=true (a measurement switch: no change would leave its event)');
  // the retries' jitter may shorten each delay by 20 %
  const span = (settings.webhooks?.retryScheduleMs ?? []).reduce((sum, delay) => sum + delay * 0.8, 0);
  if (settings.webhooks !== undefined && span < MIN_WEBHOOK_RETRY_SPAN_MS) {
    weak.push(`WEBHOOK_RETRY_SCHEDULE_MS spanning ${Math.round(span / 60_000)} min with the jitter (at least 24 h of retries)`);
  }
  return weak;
}

// RFC 2606 and RFC 6761: names that can never be a production front end.
const EXAMPLE_DOMAINS = ['example.com', 'example.org', 'example.net'];
const RESERVED_TLDS = ['example', 'test', 'invalid', 'localhost'];

/**
 * Why `origin` cannot be a production front end's origin, or undefined when it may be: a wildcard,
 * a plain-http origin (production's cookie is Secure, and a page served over http can be rewritten
 * on its way), a loopback host, or a name reserved for examples and tests. An entry that is no URL
 * at all is left to the gateway's CORS setup, which refuses it in every environment.
 */
export function placeholderOrigin(origin: string): string | undefined {
  if (origin.includes('*')) return 'a wildcard';
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return undefined;
  }
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  const under = (domain: string): boolean => host === domain || host.endsWith(`.${domain}`);
  if (under('localhost') || /^127\./.test(host) || host === '[::1]' || host === '0.0.0.0' || host === '[::]') {
    return 'a loopback address';
  }
  if (EXAMPLE_DOMAINS.some(under) || RESERVED_TLDS.some((tld) => host.endsWith(`.${tld}`))) return 'a name reserved for examples';
  if (url.protocol !== 'https:') return 'not https';
  return undefined;
}
