import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readClamd, type ClamdSettings } from './clamd.ts';
import { ConfigError } from './config-error.ts';
import { readGrpcTls, type GrpcTls } from './grpc-tls.ts';
import { readListenHost } from './listen-host.ts';
import { weakProductionSettings } from './production-rules.ts';

/** Repository root (libs/kit/src/config → ../../../..). */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');

export type AppEnv = 'development' | 'test' | 'production';

/**
 * The platform's configuration, read once from the environment (docs/interface.md#configuration). Every process
 * reads the same variables; each uses what it needs. The database's address is not among them: only
 * the services read it (database-url.ts).
 *
 * @example
 * const config = loadConfig(process.env);
 * config.gatewayPort // 8080 unless GATEWAY_PORT says otherwise
 */
export interface Config {
  appEnv: AppEnv;
  dataDir: string;
  gatewayPort: number;
  /**
   * A second gateway port (MANAGEMENT_PORT) that serves only the health paths, outside the filter
   * chain, for probes and monitoring inside the cluster; unset: none. Never expose it publicly.
   */
  managementPort: number | undefined;
  /**
   * The interface every internal port binds (INTERNAL_LISTEN_HOST, default 127.0.0.1): the services'
   * gRPC and metrics ports, dms-svc's file port, the gateway's management port (listen-host.ts).
   */
  internalListenHost: string;
  redisUrl: string | undefined;
  /** Prefix of every Redis key the platform writes (REDIS_KEY_PREFIX), so deployments or test runs can share one Redis. */
  redisKeyPrefix: string;
  jwtSecret: string;
  coreApiKey: string;
  dmsUrlSecret: string;
  adminUserCode: string;
  adminPassword: string | undefined;
  jwtTtlSeconds: number;
  /** How often the gateway sends core when it last served each session (lastSeenAt), SESSION_SEEN_FLUSH_MS. */
  sessionSeenFlushMs: number;
  cookieSecure: boolean;
  bcryptRounds: number;
  rateLimit: { public: number; apiKey: number; jwt: number };
  allowedOrigins: string[];
  ipFilter: { enabled: boolean; allow: string[]; deny: string[] };
  trustProxy: number;
  dms: {
    storageDir: string;
    maxUploadBytes: number;
    urlTtlSeconds: number;
    retentionIntervalSeconds: number;
    httpAddr: string;
    /** Virus scanning of uploads with clamd (CLAMD_ADDRESS, CLAMD_TIMEOUT_MS, CLAMD_FAIL_OPEN); unset: uploads are not scanned. */
    clamd: ClamdSettings | undefined;
    /** How long a share-link download's slot stays taken without a renewal (DMS_SHARE_LEASE_SECONDS); renewed every third of it. */
    shareLeaseSeconds: number;
    /** How long a resumable (tus) upload may take from its creation (DMS_TUS_EXPIRY_SECONDS); past it, it is swept. */
    tusExpirySeconds: number;
    /** How often each replica sweeps expired resumable uploads (DMS_TUS_SWEEP_INTERVAL_SECONDS). */
    tusSweepIntervalSeconds: number;
    /** How many unfinished resumable uploads one user may hold at once (DMS_TUS_MAX_OPEN_UPLOADS). */
    tusMaxOpenUploads: number;
  };
  grpc: { core: string; bpm: string; dms: string; deadlineMs: number };
  /** Mutual TLS on every gRPC server and channel (GRPC_TLS_CA, GRPC_TLS_CERT, GRPC_TLS_KEY); undefined: plaintext. */
  grpcTls: GrpcTls | undefined;
  /** Each service's Prometheus port (CORE_METRICS_PORT, BPM_METRICS_PORT, DMS_METRICS_PORT), serving /metrics; 0: any free port. */
  metricsPorts: { core: number; bpm: number; dms: number };
  /** reCAPTCHA v3 check of login, when RECAPTCHA_SECRET is set. */
  captcha: { secret: string; verifyUrl: string; minScore: number } | undefined;
  /**
   * The console (docs/decisions.md "The console"): its built files (CONSOLE_DIR, default
   * gateway/console/dist) and the reCAPTCHA v3 site key its login page runs when captchas are checked
   * (RECAPTCHA_SITE_KEY; public by nature: it is in the page).
   */
  console: { dir: string; captchaSiteKey: string | undefined };
  /** Largest JSON body the gateway reads. */
  maxJsonBytes: number;
  /** Longest the gateway waits for a request's body once its headers are in (REQUEST_BODY_TIMEOUT_MS); the upload is timed by idleness instead. */
  requestBodyTimeoutMs: number;
  /** Longest an upload's body may send nothing before the gateway cuts it off (UPLOAD_IDLE_TIMEOUT_MS). */
  uploadIdleTimeoutMs: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
  /**
   * OUTBOX_DISABLED: recordEvent writes nothing (events/outbox.ts). A measurement switch for the
   * benchmark's baseline only; production refuses it (production-rules.ts).
   */
  outboxDisabled: boolean;
  /** The webhook dispatcher of core-svc (docs/interface.md#webhooks). */
  webhooks: WebhookSettings;
}

/** How core-svc's webhook dispatcher delivers (docs/decisions.md "Webhooks"). */
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

type Env = Record<string, string | undefined>;

const REQUIRED_IN_PRODUCTION = ['JWT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET', 'ALLOWED_ORIGINS', 'REDIS_URL'] as const;

export function loadConfig(env: Env = process.env): Config {
  const appEnv = parseAppEnv(env.APP_ENV);
  if (appEnv === 'production') {
    const missing = REQUIRED_IN_PRODUCTION.filter((name) => !env[name]);
    if (missing.length > 0) throw new ConfigError(`production needs ${missing.join(', ')}`);
  }
  const dataDir = resolve(env.DATA_DIR ?? join(ROOT_DIR, '.data'));
  const secrets = resolveSecrets(env, appEnv, dataDir);
  const jwtTtlSeconds = int(env, 'JWT_TTL_SECONDS', 28_800, 60);
  const config: Config = {
    appEnv,
    dataDir,
    gatewayPort: int(env, 'GATEWAY_PORT', 8080, 0, 65_535),
    managementPort: env.MANAGEMENT_PORT ? int(env, 'MANAGEMENT_PORT', 0, 0, 65_535) : undefined,
    internalListenHost: readListenHost(env),
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: keyPrefix(env, 'REDIS_KEY_PREFIX', 'platform'),
    ...secrets,
    adminUserCode: env.ADMIN_USER_CODE || 'admin',
    sessionSeenFlushMs: int(env, 'SESSION_SEEN_FLUSH_MS', 30_000, 100, 3_600_000),
    adminPassword: env.ADMIN_PASSWORD || undefined,
    jwtTtlSeconds,
    cookieSecure: bool(env, 'COOKIE_SECURE', appEnv === 'production'),
    bcryptRounds: int(env, 'BCRYPT_ROUNDS', 10, 4, 15),
    rateLimit: {
      public: int(env, 'RATE_LIMIT_PUBLIC', 60, 1),
      apiKey: int(env, 'RATE_LIMIT_API_KEY', 100, 1),
      jwt: int(env, 'RATE_LIMIT_JWT', 200, 1),
    },
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    ipFilter: {
      enabled: bool(env, 'IP_FILTER_ENABLED', appEnv === 'production'),
      allow: list(env.IP_ALLOW),
      deny: list(env.IP_DENY),
    },
    trustProxy: int(env, 'TRUST_PROXY', 0, 0, 32),
    dms: {
      storageDir: resolve(env.DMS_STORAGE_DIR ?? join(dataDir, 'files')),
      maxUploadBytes: int(env, 'DMS_MAX_UPLOAD_BYTES', 1024 ** 3, 1),
      urlTtlSeconds: int(env, 'DMS_URL_TTL_SECONDS', 300, 1),
      retentionIntervalSeconds: int(env, 'DMS_RETENTION_INTERVAL_SECONDS', 3600, 1),
      shareLeaseSeconds: int(env, 'DMS_SHARE_LEASE_SECONDS', 30, 1, 3600),
      tusExpirySeconds: int(env, 'DMS_TUS_EXPIRY_SECONDS', 86_400, 1),
      tusSweepIntervalSeconds: int(env, 'DMS_TUS_SWEEP_INTERVAL_SECONDS', 600, 1),
      tusMaxOpenUploads: int(env, 'DMS_TUS_MAX_OPEN_UPLOADS', 20, 1, 10_000),
      // dms-svc's HTTP server for the file bytes (upload, download), which the gateway proxies to
      httpAddr: env.DMS_HTTP_ADDR || '127.0.0.1:50054',
      clamd: readClamd(env),
    },
    grpc: {
      core: env.CORE_GRPC_ADDR || '127.0.0.1:50051',
      bpm: env.BPM_GRPC_ADDR || '127.0.0.1:50052',
      dms: env.DMS_GRPC_ADDR || '127.0.0.1:50053',
      deadlineMs: int(env, 'GRPC_DEADLINE_MS', 10_000, 1),
    },
    grpcTls: readGrpcTls(env),
    metricsPorts: {
      core: int(env, 'CORE_METRICS_PORT', 9101, 0, 65_535),
      bpm: int(env, 'BPM_METRICS_PORT', 9102, 0, 65_535),
      dms: int(env, 'DMS_METRICS_PORT', 9103, 0, 65_535),
    },
    captcha: env.RECAPTCHA_SECRET
      ? {
          secret: env.RECAPTCHA_SECRET,
          verifyUrl: env.RECAPTCHA_VERIFY_URL || 'https://www.google.com/recaptcha/api/siteverify',
          minScore: score(env, 'RECAPTCHA_MIN_SCORE', 0.5),
        }
      : undefined,
    console: { dir: resolve(env.CONSOLE_DIR || join(ROOT_DIR, 'gateway/console/dist')), captchaSiteKey: env.RECAPTCHA_SITE_KEY || undefined },
    maxJsonBytes: int(env, 'MAX_JSON_BYTES', 1024 * 1024, 1024),
    requestBodyTimeoutMs: int(env, 'REQUEST_BODY_TIMEOUT_MS', 60_000, 100, 3_600_000),
    uploadIdleTimeoutMs: int(env, 'UPLOAD_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
    logLevel: parseLogLevel(env.LOG_LEVEL),
    outboxDisabled: bool(env, 'OUTBOX_DISABLED', false),
    webhooks: webhookSettings(env, appEnv),
  };
  if (appEnv === 'production') {
    const weak = weakProductionSettings(config);
    if (weak.length > 0) throw new ConfigError(`production refuses ${weak.join('; ')}`);
  }
  return config;
}

/** The port of a `host:port` address. */
export function portOf(address: string): number {
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  if (!Number.isInteger(port)) throw new ConfigError(`no port in ${address}`);
  return port;
}

interface Secrets {
  jwtSecret: string;
  coreApiKey: string;
  dmsUrlSecret: string;
}

const SECRETS_FILE = 'secrets.json';

/** Reads the development secrets kept under the data folder, creating them on first use. */
export function developmentSecrets(dataDir: string): Secrets & { generated: boolean } {
  const file = join(dataDir, SECRETS_FILE);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Secrets;
    return { ...stored, generated: false };
  }
  const secrets: Secrets = {
    jwtSecret: randomBytes(32).toString('hex'),
    coreApiKey: randomBytes(16).toString('hex'),
    dmsUrlSecret: randomBytes(32).toString('hex'),
  };
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { ...secrets, generated: true };
}

function resolveSecrets(env: Env, appEnv: AppEnv, dataDir: string): Secrets {
  const given = { jwtSecret: env.JWT_SECRET, coreApiKey: env.CORE_API_KEY, dmsUrlSecret: env.DMS_URL_SECRET };
  let stored: Secrets | undefined;
  const need = (): Secrets => {
    if (appEnv !== 'development') {
      const missing = Object.entries({ JWT_SECRET: given.jwtSecret, CORE_API_KEY: given.coreApiKey, DMS_URL_SECRET: given.dmsUrlSecret })
        .filter(([, value]) => !value)
        .map(([name]) => name);
      throw new ConfigError(`${appEnv} needs ${missing.join(', ')}`);
    }
    stored ??= developmentSecrets(dataDir);
    return stored;
  };
  const jwtSecret = given.jwtSecret || need().jwtSecret;
  if (!/^[0-9a-fA-F]{64,}$/.test(jwtSecret)) {
    throw new ConfigError('JWT_SECRET must be at least 64 hexadecimal characters');
  }
  const coreApiKey = given.coreApiKey || need().coreApiKey;
  if (!/^[0-9a-fA-F]{32}$/.test(coreApiKey)) throw new ConfigError('CORE_API_KEY must be 32 hexadecimal characters');
  const dmsUrlSecret = given.dmsUrlSecret || need().dmsUrlSecret;
  return { jwtSecret, coreApiKey, dmsUrlSecret };
}

function parseAppEnv(value: string | undefined): AppEnv {
  if (value === undefined || value === '') return 'development';
  if (value === 'development' || value === 'test' || value === 'production') return value;
  throw new ConfigError(`APP_ENV must be development, test or production, not ${value}`);
}

function parseLogLevel(value: string | undefined): Config['logLevel'] {
  if (value === undefined || value === '') return 'info';
  if (value === 'debug' || value === 'info' || value === 'warn' || value === 'error') return value;
  throw new ConfigError(`LOG_LEVEL must be debug, info, warn or error, not ${value}`);
}

function int(env: Env, name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, not ${raw}`);
  }
  return value;
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

function score(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || value > 1) throw new ConfigError(`${name} must be a number from 0 to 1, not ${raw}`);
  return value;
}

function keyPrefix(env: Env, name: string, fallback: string): string {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^[\w.:-]{1,64}$/.test(raw)) throw new ConfigError(`${name} must be 1 to 64 letters, digits or _ . : -, not ${raw}`);
  return raw;
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, not ${raw}`);
}

function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}
