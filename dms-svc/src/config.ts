import { join, resolve } from 'node:path';
import { readClamd, type ClamdSettings } from '@platform/kit/config/clamd.ts';
import { dmsHttpAddrOf } from '@platform/kit/config/config.ts';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import { bool, int, type Env } from '@platform/kit/config/env.ts';
import { refuseWeakInProduction } from '@platform/kit/config/production-rules.ts';
import { readTextSettings, type TextSettings } from './text/text-settings.ts';
import { bcryptRoundsOf, readServiceConfig, type ServiceConfig } from '@platform/service-kit/config/service-config.ts';

/** dms-svc's configuration: what every service reads, and the files' storage, limits, links, scans and resumable uploads (docs/interface.md#configuration). */
export interface DmsConfig extends ServiceConfig {
  /** DMS_FILE_PORT_SECRET: the key of the gateway's credential on the file port (libs/kit/src/auth/file-port-credential.ts). */
  dmsFilePortSecret: string;
  /** bcrypt's cost for share-link passwords. */
  bcryptRounds: number;
  dms: {
    /** Where the bytes live (DMS_STORAGE): the folder storageDir (`local`, the default) or an S3-compatible bucket (`s3`). */
    storage: { kind: 'local' } | ({ kind: 's3' } & S3Settings);
    /** The local folder of the stored files and the resumable uploads in progress under DMS_STORAGE=local (unused under s3). */
    storageDir: string;
    /** How old a leftover must be before the storage sweep removes it (DMS_STORAGE_SWEEP_GRACE_SECONDS; files/storage-sweep.ts). */
    sweepGraceSeconds: number;
    maxUploadBytes: number;
    urlTtlSeconds: number;
    retentionIntervalSeconds: number;
    /** The HTTP server for the file bytes (upload, download), which the gateway relays to. */
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
    /** The reading of files' words (DMS_TEXT_*: text/text-settings.ts). */
    text: TextSettings;
    /** How long one REGEX matching rule may run against one file's text (DMS_MATCHING_REGEX_TIMEOUT_MS); past it the rule is skipped for that file. */
    matchingRegexTimeoutMs: number;
  };
}

/** DMS_STORAGE=s3's settings (files/s3-storage.ts). */
export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  /** Both or neither: without them, the SDK's default chain (a workload identity, the instance's role). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
}

/**
 * Reads dms-svc's configuration once at its start; production refuses it when weak.
 *
 * @example
 * loadDmsConfig(process.env).dms.maxUploadBytes // 1 GiB unless DMS_MAX_UPLOAD_BYTES says otherwise
 */
export function loadDmsConfig(env: Env = process.env): DmsConfig {
  const { secrets, ...service } = readServiceConfig(env, ['DMS_FILE_PORT_SECRET']);
  const storage = readStorage(env);
  const config: DmsConfig = {
    ...service,
    dmsFilePortSecret: secrets.DMS_FILE_PORT_SECRET ?? '',
    bcryptRounds: bcryptRoundsOf(env),
    dms: {
      storage,
      sweepGraceSeconds: int(env, 'DMS_STORAGE_SWEEP_GRACE_SECONDS', storage.kind === 's3' ? 86_400 : 3600, 1),
      storageDir: resolve(env.DMS_STORAGE_DIR ?? join(service.dataDir, 'files')),
      maxUploadBytes: int(env, 'DMS_MAX_UPLOAD_BYTES', 1024 ** 3, 1),
      urlTtlSeconds: int(env, 'DMS_URL_TTL_SECONDS', 300, 1),
      retentionIntervalSeconds: int(env, 'DMS_RETENTION_INTERVAL_SECONDS', 3600, 1),
      shareLeaseSeconds: int(env, 'DMS_SHARE_LEASE_SECONDS', 30, 1, 3600),
      tusExpirySeconds: int(env, 'DMS_TUS_EXPIRY_SECONDS', 86_400, 1),
      tusSweepIntervalSeconds: int(env, 'DMS_TUS_SWEEP_INTERVAL_SECONDS', 600, 1),
      tusMaxOpenUploads: int(env, 'DMS_TUS_MAX_OPEN_UPLOADS', 20, 1, 10_000),
      matchingRegexTimeoutMs: matchingRegexTimeoutMsOf(env),
      httpAddr: dmsHttpAddrOf(env),
      clamd: readClamd(env),
      text: readTextSettings(env),
    },
  };
  refuseWeakInProduction(config);
  return config;
}

/**
 * DMS_MATCHING_REGEX_TIMEOUT_MS (default 1000, at most a minute): the statement timeout of one REGEX
 * matching rule against one file's text (matching/rule-match.ts), read where the rules are applied.
 */
export function matchingRegexTimeoutMsOf(env: Env): number {
  return int(env, 'DMS_MATCHING_REGEX_TIMEOUT_MS', 1000, 1, 60_000);
}

/**
 * DMS_STORAGE: `local` (the default: DMS_STORAGE_DIR) or `s3`, which needs DMS_S3_BUCKET and takes
 * DMS_S3_ENDPOINT (unset: AWS), DMS_S3_REGION (default us-east-1), DMS_S3_FORCE_PATH_STYLE (default
 * true: what MinIO, Ceph RGW and Swift answer) and the credentials DMS_S3_ACCESS_KEY_ID and
 * DMS_S3_SECRET_ACCESS_KEY, both or neither (neither: the SDK's default chain, a workload identity),
 * which the deployment gives from a Secret (deploy/README.md).
 */
export function readStorage(env: Env): DmsConfig['dms']['storage'] {
  const kind = env.DMS_STORAGE || 'local';
  if (kind === 'local') return { kind };
  if (kind !== 's3') throw new ConfigError(`DMS_STORAGE must be local or s3, not ${kind}`);
  const bucket = env.DMS_S3_BUCKET;
  if (!bucket) throw new ConfigError('DMS_STORAGE=s3 needs DMS_S3_BUCKET');
  const accessKeyId = env.DMS_S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.DMS_S3_SECRET_ACCESS_KEY || undefined;
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new ConfigError('DMS_S3_ACCESS_KEY_ID and DMS_S3_SECRET_ACCESS_KEY go together: give both, or neither for the default credential chain');
  return {
    kind,
    endpoint: env.DMS_S3_ENDPOINT || undefined,
    region: env.DMS_S3_REGION || 'us-east-1',
    bucket,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: bool(env, 'DMS_S3_FORCE_PATH_STYLE', true),
  };
}
