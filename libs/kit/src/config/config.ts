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
  coreApiKey: string;
  dmsUrlSecret: string;
  grpc: { core: string; bpm: string; dms: string; deadlineMs: number };
  /** Mutual TLS on every gRPC server and channel (GRPC_TLS_CA, GRPC_TLS_CERT, GRPC_TLS_KEY); undefined: plaintext. */
  grpcTls: GrpcTls | undefined;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * Each secret's variable and its field in the development secrets file. JWT_SECRET is the services'
 * alone (the gateway holds no signing key: docs/adr/0138-an-edge-without-the-signing-secret.md);
 * GATEWAY_CALL_KEY the gateway's and core-svc's; CONSOLE_CSRF_SECRET the gateway's; DMS_FILE_PORT_SECRET
 * the gateway's and dms-svc's (docs/adr/0139-the-gateway-s-own-credentials.md).
 */
const SECRET_FIELDS = {
  JWT_SECRET: 'jwtSecret',
  CORE_API_KEY: 'coreApiKey',
  DMS_URL_SECRET: 'dmsUrlSecret',
  GATEWAY_CALL_KEY: 'gatewayCallKey',
  CONSOLE_CSRF_SECRET: 'consoleCsrfSecret',
  DMS_FILE_PORT_SECRET: 'dmsFilePortSecret',
} as const;

/** A secret only some processes hold, which each names to readSharedConfig. */
export type OwnSecret = 'JWT_SECRET' | 'GATEWAY_CALL_KEY' | 'CONSOLE_CSRF_SECRET' | 'DMS_FILE_PORT_SECRET';

/** The secrets every process is given; production names those it misses, with the process's own. */
const SHARED_SECRETS = ['CORE_API_KEY', 'DMS_URL_SECRET'] as const;

/** A secret of its own (GATEWAY_CALL_KEY, CONSOLE_CSRF_SECRET, DMS_FILE_PORT_SECRET) is an HMAC key or compared whole: 32 characters at least. */
const MIN_OWN_SECRET_LENGTH = 32;

/**
 * Reads the settings every process shares, and `own`, the secrets this process alone holds
 * (returned in `secrets`). `requiredInProduction` names the process's own settings production
 * cannot start without, so that one refusal names every missing one.
 *
 * @example
 * const { secrets, ...shared } = readSharedConfig(env, [], ['JWT_SECRET']);
 * secrets.JWT_SECRET // given, or in development generated once under .data/
 */
export function readSharedConfig<N extends OwnSecret = never>(
  env: Env,
  requiredInProduction: readonly string[] = [],
  own: readonly N[] = [],
): SharedConfig & { secrets: Record<N, string> } {
  const appEnv = parseAppEnv(env.APP_ENV);
  if (appEnv === 'production') {
    const missing = [...own, ...SHARED_SECRETS, ...requiredInProduction].filter((name) => !env[name]);
    if (missing.length > 0) throw new ConfigError(`production needs ${missing.join(', ')}`);
  }
  const dataDir = dataDirOf(env);
  const resolved = resolveSecrets(env, appEnv, dataDir, [...own, ...SHARED_SECRETS]);
  const secrets = Object.fromEntries(own.map((name) => [name, resolved[name]])) as Record<N, string>;
  return {
    appEnv,
    dataDir,
    internalListenHost: readListenHost(env),
    coreApiKey: resolved.CORE_API_KEY,
    dmsUrlSecret: resolved.DMS_URL_SECRET,
    secrets,
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

/** The development secrets file's fields, one per secret (SECRET_FIELDS). */
type Secrets = Record<(typeof SECRET_FIELDS)[keyof typeof SECRET_FIELDS], string>;
type SecretName = keyof typeof SECRET_FIELDS;

const SECRETS_FILE = 'secrets.json';

/** A fresh development value of each secret: 32 random bytes in hex, the API key 16. */
function freshSecrets(): Secrets {
  const hex = (bytes: number) => randomBytes(bytes).toString('hex');
  return {
    jwtSecret: hex(32),
    coreApiKey: hex(16),
    dmsUrlSecret: hex(32),
    gatewayCallKey: hex(32),
    consoleCsrfSecret: hex(32),
    dmsFilePortSecret: hex(32),
  };
}

/**
 * Reads the development secrets kept under the data folder, creating them on first use; a file
 * written before a secret existed gets that secret added (the others stay as they were).
 */
export function developmentSecrets(dataDir: string): Secrets & { generated: boolean } {
  const file = join(dataDir, SECRETS_FILE);
  if (existsSync(file)) {
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Partial<Secrets>;
    const complete = { ...freshSecrets(), ...stored };
    if (Object.keys(complete).length !== Object.keys(stored).length) {
      writeFileSync(file, JSON.stringify(complete, null, 2), { mode: 0o600 });
      chmodSync(file, 0o600);
    }
    return { ...complete, generated: false };
  }
  const secrets = freshSecrets();
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { ...secrets, generated: true };
}

/** The secrets `names`, given or (in development) kept under the data folder; one refusal names every one missing, then each is checked. */
function resolveSecrets(env: Env, appEnv: AppEnv, dataDir: string, names: readonly SecretName[]): Record<SecretName, string> {
  const missing = names.filter((name) => !env[name]);
  if (missing.length > 0 && appEnv !== 'development') throw new ConfigError(`${appEnv} needs ${missing.join(', ')}`);
  const stored = missing.length > 0 ? developmentSecrets(dataDir) : undefined;
  const values = {} as Record<SecretName, string>;
  for (const name of names) values[name] = env[name] || (stored?.[SECRET_FIELDS[name]] ?? '');
  if (values.JWT_SECRET !== undefined && !/^[0-9a-fA-F]{64,}$/.test(values.JWT_SECRET)) {
    throw new ConfigError('JWT_SECRET must be at least 64 hexadecimal characters');
  }
  if (values.CORE_API_KEY !== undefined && !/^[0-9a-fA-F]{32}$/.test(values.CORE_API_KEY))
    throw new ConfigError('CORE_API_KEY must be 32 hexadecimal characters');
  for (const name of ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET'] as const) {
    const value = values[name];
    if (value !== undefined && value.length < MIN_OWN_SECRET_LENGTH) throw new ConfigError(`${name} must be at least ${MIN_OWN_SECRET_LENGTH} characters`);
  }
  return values;
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
