import { join, resolve } from 'node:path';
import { dmsHttpAddrOf, readSharedConfig, type SharedConfig } from '@platform/kit/config/config.ts';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { bool, int, keyPrefix, list, type Env } from '@platform/kit/config/env.ts';
import { refuseWeakInProduction } from '@platform/kit/config/production-rules.ts';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

/** A sentinel's address (REDIS_SENTINELS is a comma list of them). */
export interface SentinelAddress {
  host: string;
  port: number;
}

/**
 * Where the gateway's Redis is: one address (REDIS_URL), or the master of a Sentinel group
 * (REDIS_SENTINELS, REDIS_SENTINEL_NAME; docs/adr/0142-redis-behind-sentinel.md), whose data nodes
 * ask REDIS_PASSWORD and whose sentinels REDIS_SENTINEL_PASSWORD when set.
 */
export type RedisTarget =
  | { kind: 'url'; url: string }
  | { kind: 'sentinel'; sentinels: SentinelAddress[]; name: string; password: string | undefined; sentinelPassword: string | undefined };

/** The gateway's configuration: what every process reads, and its ports, Redis, filter chain, console and body limits (docs/interface.md#configuration). */
export interface GatewayConfig extends SharedConfig {
  /**
   * The gateway's secrets (docs/adr/0139-the-gateway-s-own-credentials.md): GATEWAY_CALL_KEY, the key of
   * its own credential to core-svc; CONSOLE_CSRF_SECRET, the console's CSRF key; DMS_FILE_PORT_SECRET,
   * its credential's key on dms-svc's file port. Never JWT_SECRET: the gateway verifies no signature
   * and mints no token (docs/adr/0138-an-edge-without-the-signing-secret.md).
   */
  gatewayCallKey: string;
  consoleCsrfSecret: string;
  dmsFilePortSecret: string;
  gatewayPort: number;
  /**
   * A second gateway port (MANAGEMENT_PORT) that serves only the health paths, outside the filter
   * chain, for probes and monitoring inside the cluster; unset: none. Never expose it publicly.
   */
  managementPort: number | undefined;
  /**
   * The Redis of the rate limits and login guards: one address (REDIS_URL), or the master of a
   * Sentinel group (REDIS_SENTINELS, REDIS_SENTINEL_NAME, with REDIS_PASSWORD and
   * REDIS_SENTINEL_PASSWORD when they ask one; docs/adr/0142-redis-behind-sentinel.md); unset: in memory.
   */
  redis: RedisTarget | undefined;
  /** Prefix of every Redis key the platform writes (REDIS_KEY_PREFIX), so deployments or test runs can share one Redis. */
  redisKeyPrefix: string;
  /** How often the gateway sends core when it last served each session (lastSeenAt), SESSION_SEEN_FLUSH_MS. */
  sessionSeenFlushMs: number;
  cookieSecure: boolean;
  rateLimit: { public: number; apiKey: number; jwt: number };
  allowedOrigins: string[];
  ipFilter: { enabled: boolean; allow: string[]; deny: string[] };
  trustProxy: number;
  /** dms-svc's HTTP server for the file bytes, which the gateway relays uploads and downloads to (DMS_HTTP_ADDR). */
  dms: { httpAddr: string };
  /**
   * The console (docs/adr/0084-the-console-s-security-page-policy.md): its built files (CONSOLE_DIR, default
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
}

/** What production cannot start the gateway without, beside the secrets every process needs: Redis by REDIS_URL, or by REDIS_SENTINELS. */
const requiredInProduction = (env: Env) => ['ALLOWED_ORIGINS', env.REDIS_SENTINELS ? 'REDIS_SENTINEL_NAME' : 'REDIS_URL'];

/** Redis's default Sentinel port, for an address of REDIS_SENTINELS without one. */
const SENTINEL_PORT = 26379;

/** One `host:port` of REDIS_SENTINELS (`[v6]:port` for an IPv6 address; without a port, 26379). */
function sentinelAddress(item: string): SentinelAddress {
  const match = /^(?:\[([^\]]+)\]|([^:\s]+))(?::(\d+))?$/.exec(item);
  const port = Number(match?.[3] ?? SENTINEL_PORT);
  if (!match || !Number.isInteger(port) || port < 1 || port > 65_535) throw new ConfigError(`REDIS_SENTINELS must be a comma list of host:port, not ${item}`);
  return { host: (match[1] ?? match[2])!, port };
}

/**
 * Redis from REDIS_URL, or from REDIS_SENTINELS with REDIS_SENTINEL_NAME (docs/adr/0142-redis-behind-sentinel.md);
 * both at once is refused, as one of them would be silently ignored.
 */
function readRedisTarget(env: Env): RedisTarget | undefined {
  const sentinels = list(env.REDIS_SENTINELS).map(sentinelAddress);
  if (sentinels.length === 0) return env.REDIS_URL ? { kind: 'url', url: env.REDIS_URL } : undefined;
  if (env.REDIS_URL) throw new ConfigError('REDIS_URL and REDIS_SENTINELS are both set: set one (REDIS_SENTINELS finds the master through Sentinel)');
  const name = env.REDIS_SENTINEL_NAME?.trim();
  if (!name) throw new ConfigError("REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the master group's name");
  return { kind: 'sentinel', sentinels, name, password: env.REDIS_PASSWORD || undefined, sentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined };
}

/**
 * Reads the gateway's configuration once at its start; production refuses it when a setting is
 * missing or weak.
 *
 * @example
 * loadGatewayConfig(process.env).gatewayPort // 8080 unless GATEWAY_PORT says otherwise
 */
export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const { secrets, ...shared } = readSharedConfig(env, requiredInProduction(env), ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET']);
  const config: GatewayConfig = {
    ...shared,
    gatewayCallKey: secrets.GATEWAY_CALL_KEY,
    consoleCsrfSecret: secrets.CONSOLE_CSRF_SECRET,
    dmsFilePortSecret: secrets.DMS_FILE_PORT_SECRET,
    gatewayPort: int(env, 'GATEWAY_PORT', 8080, 0, 65_535),
    managementPort: env.MANAGEMENT_PORT ? int(env, 'MANAGEMENT_PORT', 0, 0, 65_535) : undefined,
    redis: readRedisTarget(env),
    redisKeyPrefix: keyPrefix(env, 'REDIS_KEY_PREFIX', 'platform'),
    sessionSeenFlushMs: int(env, 'SESSION_SEEN_FLUSH_MS', 30_000, 100, 3_600_000),
    cookieSecure: bool(env, 'COOKIE_SECURE', shared.appEnv === 'production'),
    rateLimit: {
      public: int(env, 'RATE_LIMIT_PUBLIC', 60, 1),
      apiKey: int(env, 'RATE_LIMIT_API_KEY', 100, 1),
      jwt: int(env, 'RATE_LIMIT_JWT', 200, 1),
    },
    allowedOrigins: list(env.ALLOWED_ORIGINS),
    ipFilter: {
      enabled: bool(env, 'IP_FILTER_ENABLED', shared.appEnv === 'production'),
      allow: list(env.IP_ALLOW),
      deny: list(env.IP_DENY),
    },
    trustProxy: int(env, 'TRUST_PROXY', 0, 0, 32),
    dms: { httpAddr: dmsHttpAddrOf(env) },
    console: { dir: resolve(env.CONSOLE_DIR || join(ROOT_DIR, 'gateway/console/dist')), captchaSiteKey: env.RECAPTCHA_SITE_KEY || undefined },
    maxJsonBytes: int(env, 'MAX_JSON_BYTES', 1024 * 1024, 1024),
    requestBodyTimeoutMs: int(env, 'REQUEST_BODY_TIMEOUT_MS', 60_000, 100, 3_600_000),
    uploadIdleTimeoutMs: int(env, 'UPLOAD_IDLE_TIMEOUT_MS', 60_000, 100, 3_600_000),
  };
  const { appEnv, dmsUrlSecret, cookieSecure, allowedOrigins } = config;
  refuseWeakInProduction({ appEnv, dmsUrlSecret, cookieSecure, allowedOrigins });
  return config;
}
