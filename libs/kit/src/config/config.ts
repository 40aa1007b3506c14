import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from './config-error.ts';
import { int, type Env } from './env.ts';
import { readGrpcTls, type GrpcTls } from './grpc-tls.ts';
import { readListenHost } from './listen-host.ts';
import { ROOT_DIR } from './root-dir.ts';

export type AppEnv = 'development' | 'test' | 'production';

/**
 * What every process reads from the environment (docs/interface.md#configuration); each process
 * reads its own settings beside these: the gateway's in gateway/src/config.ts, every service's in
 * the service kit (config/service-config.ts), core-svc's and dms-svc's in their own config.ts. The
 * database's address is not among them: only the services read it (database-url.ts).
 *
 * @example
 * const shared = readSharedConfig(process.env);
 * shared.grpc.core // 127.0.0.1:50051 unless CORE_GRPC_ADDR says otherwise
 */
export interface SharedConfig {
  appEnv: AppEnv;
  dataDir: string;
  /**
   * The interface every internal port binds (INTERNAL_LISTEN_HOST, default 127.0.0.1): the services'
   * gRPC and metrics ports, dms-svc's file port, the gateway's management port (listen-host.ts).
   */
  internalListenHost: string;
  jwtSecret: string;
  coreApiKey: string;
  dmsUrlSecret: string;
  grpc: { core: string; bpm: string; dms: string; deadlineMs: number };
  /** Mutual TLS on every gRPC server and channel (GRPC_TLS_CA, GRPC_TLS_CERT, GRPC_TLS_KEY); undefined: plaintext. */
  grpcTls: GrpcTls | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/** The secrets every process is given; production names those it misses, with the process's own. */
const SECRETS_REQUIRED_IN_PRODUCTION = ['JWT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET'] as const;

/**
 * Reads the settings every process shares. `requiredInProduction` names the process's own settings
 * production cannot start without, so that one refusal names every missing one.
 */
export function readSharedConfig(env: Env, requiredInProduction: readonly string[] = []): SharedConfig {
  const appEnv = parseAppEnv(env.APP_ENV);
  if (appEnv === 'production') {
    const missing = [...SECRETS_REQUIRED_IN_PRODUCTION, ...requiredInProduction].filter((name) => !env[name]);
    if (missing.length > 0) throw new ConfigError(`production needs ${missing.join(', ')}`);
  }
  const dataDir = dataDirOf(env);
  return {
    appEnv,
    dataDir,
    internalListenHost: readListenHost(env),
    ...resolveSecrets(env, appEnv, dataDir),
    grpc: {
      core: env.CORE_GRPC_ADDR || '127.0.0.1:50051',
      bpm: env.BPM_GRPC_ADDR || '127.0.0.1:50052',
      dms: env.DMS_GRPC_ADDR || '127.0.0.1:50053',
      deadlineMs: int(env, 'GRPC_DEADLINE_MS', 10_000, 1),
    },
    grpcTls: readGrpcTls(env),
    logLevel: parseLogLevel(env.LOG_LEVEL),
  };
}

/** The data folder (DATA_DIR, default `.data/` at the repository root). */
export function dataDirOf(env: Env): string {
  return resolve(env.DATA_DIR ?? join(ROOT_DIR, '.data'));
}

/** dms-svc's HTTP server for the file bytes (DMS_HTTP_ADDR): where dms-svc listens and the gateway relays to. */
export function dmsHttpAddrOf(env: Env): string {
  return env.DMS_HTTP_ADDR || '127.0.0.1:50054';
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

function parseLogLevel(value: string | undefined): SharedConfig['logLevel'] {
  if (value === undefined || value === '') return 'info';
  if (value === 'debug' || value === 'info' || value === 'warn' || value === 'error') return value;
  throw new ConfigError(`LOG_LEVEL must be debug, info, warn or error, not ${value}`);
}
