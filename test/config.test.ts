/** Configuration (docs/interface.md#configuration): production names what it misses; secrets are checked at start. */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import type { SharedConfig } from '@platform/kit/config/config.ts';
import { databaseOwnerUrlOf, databaseUrlOf, servingRoleOf } from '@platform/service-kit/config/database-url.ts';
import { childEnv } from '../scripts/lib/child-env.ts';
import { loadServiceConfig } from '@platform/service-kit/config/service-config.ts';
import { loadCoreConfig } from '@platform/core-svc/config.ts';
import { loadDmsConfig } from '@platform/dms-svc/config.ts';
import { loadGatewayConfig } from '@platform/gateway/config.ts';

const secrets = {
  JWT_SECRET: 'a'.repeat(64),
  CORE_API_KEY: 'b'.repeat(32),
  DMS_URL_SECRET: 'c'.repeat(32),
  GATEWAY_CALL_KEY: 'd'.repeat(64),
  CONSOLE_CSRF_SECRET: 'e'.repeat(64),
  DMS_FILE_PORT_SECRET: 'f'.repeat(64),
};
/** The gateway's secrets: no JWT_SECRET (docs/adr/0138-an-edge-without-the-signing-secret.md). */
const GATEWAY_SECRETS = ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET'];
/** A production configuration that starts: every required setting, none of them weak. */
const production = { APP_ENV: 'production', ...secrets, ALLOWED_ORIGINS: 'https://app.acme.com', DATABASE_URL: 'postgres://x', REDIS_URL: 'redis://y' };

/** The message of the ConfigError that `env` is refused with by a process's loader (the gateway's unless told). */
function refusal(t: ExecutionContext, env: Record<string, string>, load: (env: Record<string, string>) => SharedConfig = loadGatewayConfig): string {
  return t.throws(() => load(env), { instanceOf: ConfigError })?.message ?? '';
}

test('production refuses to start the gateway without its secrets, origins and Redis, naming each, and a service without DATABASE_URL', (t) => {
  const error = t.throws(() => loadGatewayConfig({ APP_ENV: 'production' }), { instanceOf: ConfigError });
  for (const name of [...GATEWAY_SECRETS, 'ALLOWED_ORIGINS', 'REDIS_URL']) {
    t.true(error?.message.includes(name), name);
  }
  // the signing key is the services' alone
  t.false(error?.message.includes('JWT_SECRET'));
  // the database's address is the services' alone: the gateway starts without it
  t.false(error?.message.includes('DATABASE_URL'));
  t.throws(() => databaseUrlOf({ APP_ENV: 'production' }), { instanceOf: ConfigError, message: /DATABASE_URL is not set/ });
  t.is(databaseUrlOf({ DATABASE_URL: 'postgres://x' }), 'postgres://x');
  const partial = t.throws(() => loadGatewayConfig({ APP_ENV: 'production', ...secrets, DATABASE_URL: 'postgres://x' }));
  t.is(partial?.message, 'production needs ALLOWED_ORIGINS, REDIS_URL');
});

test("each process reads its own settings: a service needs the secrets, not the gateway's origins or Redis", (t) => {
  for (const [load, needs] of [
    [loadServiceConfig, 'JWT_SECRET, CORE_API_KEY, DMS_URL_SECRET'],
    [loadCoreConfig, 'JWT_SECRET, GATEWAY_CALL_KEY, CORE_API_KEY, DMS_URL_SECRET'],
    [loadDmsConfig, 'JWT_SECRET, DMS_FILE_PORT_SECRET, CORE_API_KEY, DMS_URL_SECRET'],
  ] as const) {
    t.is(refusal(t, { APP_ENV: 'production' }, load), `production needs ${needs}`, load.name);
    t.notThrows(() => load({ APP_ENV: 'production', ...secrets }), load.name);
  }
  // what a process does not read, it does not check
  t.notThrows(() => loadServiceConfig({ APP_ENV: 'test', ...secrets, GATEWAY_PORT: 'eighty', WEBHOOK_LEASE_MS: 'soon', CLAMD_ADDRESS: 'clamav' }));
  t.notThrows(() => loadGatewayConfig({ APP_ENV: 'test', ...secrets, CORE_METRICS_PORT: 'x', BCRYPT_ROUNDS: '99', DMS_TUS_MAX_OPEN_UPLOADS: '0' }));
});

test('a JWT_SECRET under 64 hex characters, a CORE_API_KEY that is not 32 hex characters and a gateway secret under 32 characters are refused', (t) => {
  t.throws(() => loadServiceConfig({ APP_ENV: 'test', ...secrets, JWT_SECRET: 'a'.repeat(63) }), { message: /JWT_SECRET/ });
  t.throws(() => loadServiceConfig({ APP_ENV: 'test', ...secrets, JWT_SECRET: 'z'.repeat(64) }), { message: /JWT_SECRET/ });
  for (const name of ['GATEWAY_CALL_KEY', 'CONSOLE_CSRF_SECRET', 'DMS_FILE_PORT_SECRET']) {
    t.throws(() => loadGatewayConfig({ APP_ENV: 'test', ...secrets, [name]: 'x'.repeat(31) }), { message: new RegExp(`${name} must be at least 32`) });
  }
  t.throws(() => loadGatewayConfig({ APP_ENV: 'test', ...secrets, CORE_API_KEY: 'b'.repeat(31) }), { message: /CORE_API_KEY/ });
  t.notThrows(() => loadGatewayConfig({ APP_ENV: 'test', ...secrets }));
});

test('defaults: port 8080, limits 60/100/200, IP filter off outside production, uploads 1 GiB, URLs 300 s', (t) => {
  const config = loadGatewayConfig({ APP_ENV: 'test', ...secrets });
  t.is(config.gatewayPort, 8080);
  t.deepEqual(config.rateLimit, { public: 60, apiKey: 100, jwt: 200 });
  t.false(config.ipFilter.enabled);
  t.is(config.trustProxy, 0);
  t.false(config.cookieSecure);
  const dms = loadDmsConfig({ APP_ENV: 'test', ...secrets });
  t.is(dms.dms.maxUploadBytes, 1024 ** 3);
  t.is(dms.dms.urlTtlSeconds, 300);
  t.is(loadCoreConfig({ APP_ENV: 'test', ...secrets }).jwtTtlSeconds, 28_800);
  t.true(loadGatewayConfig({ APP_ENV: 'production', ...secrets, ALLOWED_ORIGINS: 'https://a', DATABASE_URL: 'x', REDIS_URL: 'y' }).cookieSecure);
  t.throws(() => loadGatewayConfig({ APP_ENV: 'staging' }), { message: /APP_ENV/ });
  t.throws(() => loadGatewayConfig({ APP_ENV: 'test', ...secrets, GATEWAY_PORT: 'eighty' }), { message: /GATEWAY_PORT/ });
});

test('in development, missing secrets are generated once under the data folder and kept', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'config-test-'));
  const first = loadGatewayConfig({ DATA_DIR: dataDir });
  const second = loadGatewayConfig({ DATA_DIR: dataDir });
  const service = loadServiceConfig({ DATA_DIR: dataDir });
  t.regex(service.jwtSecret, /^[0-9a-f]{64}$/);
  t.regex(first.coreApiKey, /^[0-9a-f]{32}$/);
  t.regex(first.gatewayCallKey, /^[0-9a-f]{64}$/);
  t.is(loadServiceConfig({ DATA_DIR: dataDir }).jwtSecret, service.jwtSecret);
  t.is(second.coreApiKey, first.coreApiKey);
  t.is(second.gatewayCallKey, first.gatewayCallKey);
  t.is(loadCoreConfig({ DATA_DIR: dataDir }).gatewayCallKey, first.gatewayCallKey);
  t.is(loadDmsConfig({ DATA_DIR: dataDir }).dmsFilePortSecret, first.dmsFilePortSecret);
  const file = join(dataDir, 'secrets.json');
  t.is(statSync(file).mode & 0o777, 0o600);
  const stored = JSON.parse(readFileSync(file, 'utf8'));
  t.is(stored.dmsUrlSecret, first.dmsUrlSecret);
  t.is(stored.consoleCsrfSecret, first.consoleCsrfSecret);
  // each secret of its own is a secret apart, none derived from another
  t.is(new Set([stored.jwtSecret, stored.gatewayCallKey, stored.consoleCsrfSecret, stored.dmsFilePortSecret, stored.dmsUrlSecret]).size, 5);
  t.throws(() => loadGatewayConfig({ APP_ENV: 'test', DATA_DIR: dataDir }), { message: new RegExp(`test needs ${GATEWAY_SECRETS.join(', ')}$`) });
  t.throws(() => loadServiceConfig({ APP_ENV: 'test', DATA_DIR: dataDir }), { message: /test needs JWT_SECRET, CORE_API_KEY, DMS_URL_SECRET$/ });
});

test('a development secrets file written before the gateway had secrets of its own gets them added, the others kept', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'config-test-'));
  const older = { jwtSecret: 'a'.repeat(64), coreApiKey: 'b'.repeat(32), dmsUrlSecret: 'c'.repeat(64) };
  writeFileSync(join(dataDir, 'secrets.json'), JSON.stringify(older), { mode: 0o600 });
  const gateway = loadGatewayConfig({ DATA_DIR: dataDir });
  t.is(gateway.coreApiKey, older.coreApiKey);
  t.regex(gateway.consoleCsrfSecret, /^[0-9a-f]{64}$/);
  t.is(loadServiceConfig({ DATA_DIR: dataDir }).jwtSecret, older.jwtSecret);
  t.is(loadGatewayConfig({ DATA_DIR: dataDir }).consoleCsrfSecret, gateway.consoleCsrfSecret, 'added once, then kept');
  t.is(statSync(join(dataDir, 'secrets.json')).mode & 0o777, 0o600);
});

test('production refuses COOKIE_SECURE=false, naming it; true and the default (Secure) start', (t) => {
  t.regex(refusal(t, { ...production, COOKIE_SECURE: 'false' }), /COOKIE_SECURE=false/);
  t.regex(refusal(t, { ...production, COOKIE_SECURE: '0' }), /COOKIE_SECURE=false/);
  t.true(loadGatewayConfig({ ...production, COOKIE_SECURE: 'true' }).cookieSecure);
  t.true(loadGatewayConfig(production).cookieSecure);
});

test('production refuses BCRYPT_ROUNDS below 10, naming it; 10 and more start', (t) => {
  t.regex(refusal(t, { ...production, BCRYPT_ROUNDS: '9' }, loadCoreConfig), /BCRYPT_ROUNDS=9 \(at least 10\)/);
  t.regex(refusal(t, { ...production, BCRYPT_ROUNDS: '4' }, loadCoreConfig), /BCRYPT_ROUNDS=4/);
  t.is(loadCoreConfig({ ...production, BCRYPT_ROUNDS: '10' }).bcryptRounds, 10);
  t.is(loadCoreConfig({ ...production, BCRYPT_ROUNDS: '12' }).bcryptRounds, 12);
  t.is(loadCoreConfig(production).bcryptRounds, 10);
  t.regex(refusal(t, { ...production, BCRYPT_ROUNDS: '9' }, loadDmsConfig), /BCRYPT_ROUNDS=9/, "dms-svc's share-link passwords too");
});

test('production refuses a DMS_URL_SECRET shorter than 32 bytes, naming it; 32 bytes start, counted in UTF-8', (t) => {
  t.regex(refusal(t, { ...production, DMS_URL_SECRET: 'c'.repeat(31) }), /DMS_URL_SECRET of 31 bytes \(at least 32/);
  t.regex(refusal(t, { ...production, DMS_URL_SECRET: 'c' }), /DMS_URL_SECRET of 1 byte /);
  t.is(loadGatewayConfig({ ...production, DMS_URL_SECRET: 'c'.repeat(32) }).dmsUrlSecret, 'c'.repeat(32));
  // 16 characters of two bytes each: the HMAC key is the secret's UTF-8 bytes
  t.notThrows(() => loadGatewayConfig({ ...production, DMS_URL_SECRET: 'ç'.repeat(16) }));
  t.notThrows(() => loadGatewayConfig({ ...production, DMS_URL_SECRET: 'f'.repeat(64) }));
});

test('production refuses placeholder origins in ALLOWED_ORIGINS, naming each: example domains, reserved names, loopback, http, wildcards', (t) => {
  const placeholders = [
    'https://example.com',
    'https://platform.example.com',
    'https://app.example.org',
    'https://www.example.net:8443',
    'https://shop.example',
    'https://app.test',
    'https://app.invalid',
    'https://localhost',
    'http://localhost:3000',
    'https://app.localhost',
    'https://127.0.0.1:8443',
    'https://[::1]',
    'http://app.acme.com',
    '*',
    'https://*.acme.com',
  ];
  for (const origin of placeholders) {
    const message = refusal(t, { ...production, ALLOWED_ORIGINS: `https://app.acme.com,${origin}` });
    t.true(message.includes(`ALLOWED_ORIGINS ${origin} (`), `${origin} is named: ${message}`);
    t.false(message.includes('https://app.acme.com ('), 'the real origin beside it is not');
  }
});

test('production starts with real https origins, subdomains and ports included', (t) => {
  const origins = ['https://app.acme.com', 'https://acme.com:8443', 'https://portal.eu.acme.co.uk', 'https://example.community', 'https://myexample.com'];
  t.deepEqual(loadGatewayConfig({ ...production, ALLOWED_ORIGINS: origins.join(',') }).allowedOrigins, origins);
});

test('production refuses OUTBOX_DISABLED=true, naming it (a measurement switch); false and the default start', (t) => {
  t.regex(refusal(t, { ...production, OUTBOX_DISABLED: 'true' }, loadServiceConfig), /OUTBOX_DISABLED=true \(a measurement switch/);
  t.false(loadServiceConfig({ ...production, OUTBOX_DISABLED: 'false' }).outboxDisabled);
  t.false(loadServiceConfig(production).outboxDisabled);
});

test('production names every weak setting a process reads in one refusal', (t) => {
  const weak = {
    ...production,
    COOKIE_SECURE: 'false',
    BCRYPT_ROUNDS: '8',
    DMS_URL_SECRET: 'short',
    ALLOWED_ORIGINS: 'https://platform.example.com',
    OUTBOX_DISABLED: '1',
  };
  const named = {
    gateway: ['COOKIE_SECURE=false', 'DMS_URL_SECRET of 5 bytes', 'ALLOWED_ORIGINS https://platform.example.com'],
    core: ['BCRYPT_ROUNDS=8', 'DMS_URL_SECRET of 5 bytes', 'OUTBOX_DISABLED=true'],
  };
  const messages = { gateway: refusal(t, weak), core: refusal(t, weak, loadCoreConfig) };
  for (const [process, names] of Object.entries(named)) {
    const message = messages[process as keyof typeof messages];
    for (const name of names) t.true(message.includes(name), `${process}: ${name} in: ${message}`);
  }
  t.false(messages.gateway.includes('BCRYPT_ROUNDS'), 'the gateway hashes no password');
  t.false(messages.core.includes('COOKIE_SECURE'), 'core-svc sets no cookie');
});

test('development and test accept what production refuses as weak', (t) => {
  const weak = {
    ...secrets,
    COOKIE_SECURE: 'false',
    BCRYPT_ROUNDS: '4',
    DMS_URL_SECRET: 'c',
    ALLOWED_ORIGINS: 'http://localhost:3000,https://app.example.com',
    OUTBOX_DISABLED: 'true',
  };
  for (const appEnv of ['development', 'test']) {
    const env = { ...weak, APP_ENV: appEnv, DATA_DIR: mkdtempSync(join(tmpdir(), 'config-test-')) };
    t.false(loadGatewayConfig(env).cookieSecure, appEnv);
    t.is(loadCoreConfig(env).bcryptRounds, 4, appEnv);
    t.true(loadCoreConfig(env).outboxDisabled, appEnv);
  }
});

test('webhook settings: defaults, loopback in development only, a schedule read as a list, a lease shorter than an attempt refused', (t) => {
  const config = loadCoreConfig({ APP_ENV: 'test', ...secrets });
  t.deepEqual(config.webhooks, {
    allowPrivateTargets: false,
    allowLoopbackTargets: false,
    disableAfterMs: 432_000_000,
    timeoutMs: 10_000,
    retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000, 36_000_000],
    leaseMs: 60_000,
  });
  t.true(config.webhooks.retryScheduleMs.reduce((sum, delay) => sum + delay * 0.8, 0) > 24 * 3_600_000, 'retries span 24 h even with every delay 20 % short');
  t.true(loadCoreConfig({ APP_ENV: 'development', ...secrets, DATA_DIR: mkdtempSync(join(tmpdir(), 'cfg-')) }).webhooks.allowLoopbackTargets);
  t.false(loadCoreConfig({ ...production }).webhooks.allowLoopbackTargets);
  const allowed = loadCoreConfig({ APP_ENV: 'test', ...secrets, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' }).webhooks;
  t.true(allowed.allowPrivateTargets && allowed.allowLoopbackTargets);
  t.deepEqual(loadCoreConfig({ APP_ENV: 'test', ...secrets, WEBHOOK_RETRY_SCHEDULE_MS: '200, 400,800' }).webhooks.retryScheduleMs, [200, 400, 800]);
  t.regex(refusal(t, { APP_ENV: 'test', ...secrets, WEBHOOK_RETRY_SCHEDULE_MS: '200,soon' }, loadCoreConfig), /WEBHOOK_RETRY_SCHEDULE_MS/);
  t.regex(refusal(t, { APP_ENV: 'test', ...secrets, WEBHOOK_LEASE_MS: '5000', WEBHOOK_TIMEOUT_MS: '5000' }, loadCoreConfig), /WEBHOOK_LEASE_MS/);
  // production keeps retrying for 24 h at least, jitter included; a test's short schedule is refused there
  t.regex(refusal(t, { ...production, WEBHOOK_RETRY_SCHEDULE_MS: '200,400,800' }, loadCoreConfig), /WEBHOOK_RETRY_SCHEDULE_MS spanning 0 min/);
  t.notThrows(() => loadCoreConfig({ ...production, WEBHOOK_RETRY_SCHEDULE_MS: '108000000' }));
});

test('CLAMD_ADDRESS: tcp://host:port (3310 when left out, IPv6 in brackets) or unix:/absolute/path; unset: no scanning', (t) => {
  const dev = { APP_ENV: 'development', ...secrets };
  t.is(loadDmsConfig(dev).dms.clamd, undefined);
  t.deepEqual(loadDmsConfig({ ...dev, CLAMD_ADDRESS: 'tcp://clamav:3310' }).dms.clamd, {
    address: { kind: 'tcp', host: 'clamav', port: 3310 },
    timeoutMs: 60_000,
    failOpen: false,
  });
  t.deepEqual(loadDmsConfig({ ...dev, CLAMD_ADDRESS: 'tcp://10.0.0.7' }).dms.clamd?.address, { kind: 'tcp', host: '10.0.0.7', port: 3310 });
  t.deepEqual(loadDmsConfig({ ...dev, CLAMD_ADDRESS: 'tcp://[::1]:3311' }).dms.clamd?.address, { kind: 'tcp', host: '::1', port: 3311 });
  t.deepEqual(loadDmsConfig({ ...dev, CLAMD_ADDRESS: 'unix:/run/clamav/clamd.sock' }).dms.clamd?.address, { kind: 'unix', path: '/run/clamav/clamd.sock' });
  t.is(loadDmsConfig({ ...dev, CLAMD_ADDRESS: 'tcp://clamav', CLAMD_TIMEOUT_MS: '5000' }).dms.clamd?.timeoutMs, 5000);
});

test('a CLAMD_ADDRESS of another syntax, a bad CLAMD_TIMEOUT_MS, and the two without an address refuse the start, naming the variable', (t) => {
  const dev = { APP_ENV: 'development', ...secrets };
  for (const address of [
    'clamav:3310',
    'http://clamav:3310',
    'tcp://',
    'tcp://clamav:0',
    'tcp://clamav:70000',
    'tcp://clamav:3310/x',
    'unix:clamd.sock',
    'unix:',
  ]) {
    t.regex(
      refusal(t, { ...dev, CLAMD_ADDRESS: address }, loadDmsConfig),
      /^CLAMD_ADDRESS must be tcp:\/\/host:port or unix:\/absolute\/path\/clamd\.sock/,
      address,
    );
  }
  t.regex(refusal(t, { ...dev, CLAMD_ADDRESS: 'tcp://clamav', CLAMD_TIMEOUT_MS: '10' }, loadDmsConfig), /CLAMD_TIMEOUT_MS must be a whole number from 100/);
  t.regex(refusal(t, { ...dev, CLAMD_ADDRESS: 'tcp://clamav', CLAMD_FAIL_OPEN: 'maybe' }, loadDmsConfig), /CLAMD_FAIL_OPEN must be true or false/);
  t.regex(refusal(t, { ...dev, CLAMD_FAIL_OPEN: 'true' }, loadDmsConfig), /CLAMD_FAIL_OPEN is set but CLAMD_ADDRESS is not/);
  t.regex(refusal(t, { ...dev, CLAMD_TIMEOUT_MS: '1000' }, loadDmsConfig), /CLAMD_TIMEOUT_MS is set but CLAMD_ADDRESS is not/);
});

test('production refuses CLAMD_FAIL_OPEN=true (scans fail closed there); development and test accept it', (t) => {
  t.regex(
    refusal(t, { ...production, CLAMD_ADDRESS: 'tcp://clamav:3310', CLAMD_FAIL_OPEN: 'true' }, loadDmsConfig),
    /CLAMD_FAIL_OPEN=true \(production scans fail closed/,
  );
  t.false(loadDmsConfig({ ...production, CLAMD_ADDRESS: 'tcp://clamav:3310', CLAMD_FAIL_OPEN: 'false' }).dms.clamd?.failOpen);
  for (const APP_ENV of ['development', 'test']) {
    t.true(loadDmsConfig({ APP_ENV, ...secrets, CLAMD_ADDRESS: 'tcp://clamav:3310', CLAMD_FAIL_OPEN: 'true' }).dms.clamd?.failOpen);
  }
});

test('REDIS_SENTINELS: host:port list (26379 when left out, IPv6 in brackets) with REDIS_SENTINEL_NAME and the two passwords; REDIS_URL alone: one address', (t) => {
  const config = loadGatewayConfig({
    APP_ENV: 'test',
    ...secrets,
    REDIS_SENTINELS: ' redis-sentinel-0:26380, redis-sentinel-1 ,[fd00::7]:26381',
    REDIS_SENTINEL_NAME: 'platform',
    REDIS_PASSWORD: 'node-password',
    REDIS_SENTINEL_PASSWORD: 'sentinel-password',
  });
  t.deepEqual(config.redis, {
    kind: 'sentinel',
    sentinels: [
      { host: 'redis-sentinel-0', port: 26380 },
      { host: 'redis-sentinel-1', port: 26379 },
      { host: 'fd00::7', port: 26381 },
    ],
    name: 'platform',
    password: 'node-password',
    sentinelPassword: 'sentinel-password',
  });
  const bare = loadGatewayConfig({ APP_ENV: 'test', ...secrets, REDIS_SENTINELS: '10.0.0.5:26379', REDIS_SENTINEL_NAME: 'm' }).redis;
  t.is(bare?.kind === 'sentinel' && bare.password, undefined, 'no password unless given');
  t.deepEqual(loadGatewayConfig({ APP_ENV: 'test', ...secrets, REDIS_URL: 'redis://r:6379' }).redis, { kind: 'url', url: 'redis://r:6379' });
  t.is(loadGatewayConfig({ APP_ENV: 'test', ...secrets, REDIS_SENTINELS: ' , ' }).redis, undefined, 'an empty list is unset');
});

test('REDIS_SENTINELS without REDIS_SENTINEL_NAME, beside REDIS_URL, or with a bad address refuses the start, naming it; production takes it for REDIS_URL', (t) => {
  const test = { APP_ENV: 'test', ...secrets };
  t.is(refusal(t, { ...test, REDIS_SENTINELS: 's:26379' }), "REDIS_SENTINELS needs REDIS_SENTINEL_NAME, the master group's name");
  t.regex(refusal(t, { ...test, REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'm', REDIS_URL: 'redis://r' }), /^REDIS_URL and REDIS_SENTINELS are both set/);
  for (const bad of ['s:0', 's:65536', 's:port', 'a b:1', '[fd00::7']) {
    t.is(refusal(t, { ...test, REDIS_SENTINELS: bad, REDIS_SENTINEL_NAME: 'm' }), `REDIS_SENTINELS must be a comma list of host:port, not ${bad}`, bad);
  }
  const { REDIS_URL: _url, ...withoutUrl } = production;
  t.is(loadGatewayConfig({ ...withoutUrl, REDIS_SENTINELS: 's:26379', REDIS_SENTINEL_NAME: 'm' }).redis?.kind, 'sentinel');
  t.is(refusal(t, { ...withoutUrl, REDIS_SENTINELS: 's:26379' }), 'production needs REDIS_SENTINEL_NAME');
  t.is(refusal(t, withoutUrl), 'production needs REDIS_URL');
});

test('DMS_STORAGE: local (the default, DMS_STORAGE_DIR) or s3 with DMS_S3_BUCKET; the S3 credentials go together; the sweep grace is an hour for the folder, a day for a bucket', (t) => {
  const dev = { APP_ENV: 'development', ...secrets };
  t.deepEqual(loadDmsConfig(dev).dms.storage, { kind: 'local' });
  t.is(loadDmsConfig(dev).dms.sweepGraceSeconds, 3600);
  const s3 = { ...dev, DMS_STORAGE: 's3', DMS_S3_BUCKET: 'files' };
  t.deepEqual(loadDmsConfig(s3).dms.storage, {
    kind: 's3',
    bucket: 'files',
    endpoint: undefined,
    region: 'us-east-1',
    accessKeyId: undefined,
    secretAccessKey: undefined,
    forcePathStyle: true,
  });
  t.is(loadDmsConfig(s3).dms.sweepGraceSeconds, 86_400);
  t.like(
    loadDmsConfig({
      ...s3,
      DMS_S3_ENDPOINT: 'http://minio:9000',
      DMS_S3_REGION: 'eu-central-1',
      DMS_S3_FORCE_PATH_STYLE: 'false',
      DMS_S3_ACCESS_KEY_ID: 'key',
      DMS_S3_SECRET_ACCESS_KEY: 'secret',
      DMS_STORAGE_SWEEP_GRACE_SECONDS: '7200',
    }).dms,
    {
      storage: { endpoint: 'http://minio:9000', region: 'eu-central-1', forcePathStyle: false, accessKeyId: 'key', secretAccessKey: 'secret' },
      sweepGraceSeconds: 7200,
    },
  );
  t.regex(refusal(t, { ...dev, DMS_STORAGE: 'nfs' }, loadDmsConfig), /DMS_STORAGE must be local or s3, not nfs/);
  t.regex(refusal(t, { ...dev, DMS_STORAGE: 's3' }, loadDmsConfig), /DMS_S3_BUCKET/);
  t.regex(refusal(t, { ...s3, DMS_S3_ACCESS_KEY_ID: 'key' }, loadDmsConfig), /DMS_S3_ACCESS_KEY_ID and DMS_S3_SECRET_ACCESS_KEY go together/);
  t.regex(refusal(t, { ...s3, DMS_S3_SECRET_ACCESS_KEY: 'secret' }, loadDmsConfig), /go together/);
});

test("DATABASE_OWNER_URL is the owner that migrates, DATABASE_URL when unset; the serving role is DATABASE_URL's user when they differ; the gateway gets neither", (t) => {
  const serving = 'postgres://platform_svc:s3cret@db:5432/platform';
  const owner = 'postgres://platform:0wner@db:5432/platform';
  t.is(databaseOwnerUrlOf({ DATABASE_URL: serving }), serving, 'unset: one role');
  t.is(databaseOwnerUrlOf({ DATABASE_URL: serving, DATABASE_OWNER_URL: '' }), serving, 'empty: unset');
  t.is(databaseOwnerUrlOf({ DATABASE_URL: serving, DATABASE_OWNER_URL: owner }), owner);
  t.is(servingRoleOf({ DATABASE_URL: serving }), undefined, 'one role: nothing to grant');
  t.is(servingRoleOf({ DATABASE_URL: serving, DATABASE_OWNER_URL: serving }), undefined);
  t.is(servingRoleOf({ DATABASE_URL: serving, DATABASE_OWNER_URL: owner }), 'platform_svc');
  t.is(servingRoleOf({ DATABASE_URL: 'postgres://svc%20role:x@db/platform', DATABASE_OWNER_URL: owner }), 'svc role', 'decoded');
  t.throws(() => servingRoleOf({ DATABASE_URL: 'postgres://db/platform', DATABASE_OWNER_URL: owner }), { instanceOf: ConfigError, message: /names no user/ });
  const env = childEnv('gateway', { DATABASE_URL: serving, DATABASE_OWNER_URL: owner, GATEWAY_PORT: '8080' });
  t.deepEqual(env, { GATEWAY_PORT: '8080' });
  t.is(childEnv('core-worker', { DATABASE_OWNER_URL: owner }).DATABASE_OWNER_URL, owner, 'a worker migrates its job schema outside production');
});
