import { ConfigError } from '@platform/kit/config/config-error.ts';
import { bool, int, list, score, type Env } from '@platform/kit/config/env.ts';
import { refuseWeakInProduction } from '@platform/kit/config/production-rules.ts';
import { bcryptRoundsOf, readServiceConfig, type ServiceConfig } from '@platform/service-kit/config/service-config.ts';
import type { AppEnv } from '@platform/kit/config/config.ts';

/** core-svc's configuration: what every service reads, and login, the first admin and the webhooks (docs/interface.md#configuration). */
export interface CoreConfig extends ServiceConfig {
  adminUserCode: string;
  adminPassword: string | undefined;
  jwtTtlSeconds: number;
  bcryptRounds: number;
  /** reCAPTCHA v3 check of login, when RECAPTCHA_SECRET is set. */
  captcha: { secret: string; verifyUrl: string; minScore: number } | undefined;
  /** The webhook dispatcher (docs/interface.md#webhooks). */
  webhooks: WebhookSettings;
}

/** How core-svc's webhook dispatcher delivers (docs/adr/0081-webhook-targets-ssrf-and-redirects.md). */
export interface WebhookSettings {
  /** Targets on loopback or private addresses allowed (WEBHOOK_ALLOW_PRIVATE_TARGETS; loopback is always allowed under APP_ENV=development). */
  allowPrivateTargets: boolean;
  /** Loopback targets allowed: under APP_ENV=development, or with allowPrivateTargets. */
  allowLoopbackTargets: boolean;
  /** How long an endpoint may keep failing before its subscription is disabled (WEBHOOK_DISABLE_AFTER_MS). */
  disableAfterMs: number;
  /** Longest one attempt may take (WEBHOOK_TIMEOUT_MS). */
  timeoutMs: number;
  /** The delay before each retry (WEBHOOK_RETRY_SCHEDULE_MS, a comma list); a delivery fails for good after the last. Each is jittered by ±20 %. */
  retryScheduleMs: number[];
  /** How long a claimed delivery is held before another dispatcher may take it (WEBHOOK_LEASE_MS). */
  leaseMs: number;
}

/** 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, 10 h: 37.6 h in all, still 30 h with every delay jittered 20 % short (more than 24 h). */
const DEFAULT_RETRY_SCHEDULE_MS = [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 36_000_000];

/**
 * Reads core-svc's configuration once at its start; production refuses it when weak.
 *
 * @example
 * loadCoreConfig(process.env).jwtTtlSeconds // 28800 unless JWT_TTL_SECONDS says otherwise
 */
export function loadCoreConfig(env: Env = process.env): CoreConfig {
  // the gateway calls core-svc as itself (login, the session check, the operator paths)
  const { secrets: _own, ...service } = readServiceConfig(env, ['GATEWAY_CALL_KEY']);
  const config: CoreConfig = {
    ...service,
    adminUserCode: env.ADMIN_USER_CODE || 'admin',
    adminPassword: env.ADMIN_PASSWORD || undefined,
    jwtTtlSeconds: int(env, 'JWT_TTL_SECONDS', 28_800, 60),
    bcryptRounds: bcryptRoundsOf(env),
    captcha: env.RECAPTCHA_SECRET
      ? {
          secret: env.RECAPTCHA_SECRET,
          verifyUrl: env.RECAPTCHA_VERIFY_URL || 'https://www.google.com/recaptcha/api/siteverify',
          minScore: score(env, 'RECAPTCHA_MIN_SCORE', 0.5),
        }
      : undefined,
    webhooks: webhookSettings(env, service.appEnv),
  };
  refuseWeakInProduction(config);
  return config;
}

function webhookSettings(env: Env, appEnv: AppEnv): WebhookSettings {
  const allowPrivateTargets = bool(env, 'WEBHOOK_ALLOW_PRIVATE_TARGETS', false);
  const schedule = list(env.WEBHOOK_RETRY_SCHEDULE_MS).map(Number);
  if (schedule.some((delay) => !Number.isInteger(delay) || delay < 0)) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE_MS must be a comma list of whole milliseconds, not ${env.WEBHOOK_RETRY_SCHEDULE_MS}`);
  }
  const timeoutMs = int(env, 'WEBHOOK_TIMEOUT_MS', 10_000, 100, 600_000);
  const leaseMs = int(env, 'WEBHOOK_LEASE_MS', 60_000, 100, 86_400_000);
  // a lease that ends while its attempt may still run lets another dispatcher send it at the same time
  if (leaseMs <= timeoutMs) throw new ConfigError(`WEBHOOK_LEASE_MS (${leaseMs}) must exceed WEBHOOK_TIMEOUT_MS (${timeoutMs})`);
  return {
    allowPrivateTargets,
    allowLoopbackTargets: allowPrivateTargets || appEnv === 'development',
    disableAfterMs: int(env, 'WEBHOOK_DISABLE_AFTER_MS', 5 * 86_400_000, 0),
    timeoutMs,
    retryScheduleMs: schedule.length > 0 ? schedule : DEFAULT_RETRY_SCHEDULE_MS,
    leaseMs,
  };
}
