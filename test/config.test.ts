/** Configuration (decisions.md §1): production names what it misses; secrets are checked at start. */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigError, loadConfig } from '@platform/libs/config/config.ts';

const secrets = { JWT_SECRET: 'a'.repeat(64), CORE_API_KEY: 'b'.repeat(32), DMS_URL_SECRET: 'c' };

test('production refuses to start without its six settings, naming each', (t) => {
  const error = t.throws(() => loadConfig({ APP_ENV: 'production' }), { instanceOf: ConfigError });
  for (const name of ['JWT_SECRET', 'CORE_API_KEY', 'DMS_URL_SECRET', 'ALLOWED_ORIGINS', 'DATABASE_URL', 'REDIS_URL']) {
    t.true(error?.message.includes(name), name);
  }
  const partial = t.throws(() => loadConfig({ APP_ENV: 'production', ...secrets, DATABASE_URL: 'postgres://x' }));
  t.is(partial?.message, 'production needs ALLOWED_ORIGINS, REDIS_URL');
});

test('a JWT_SECRET under 64 hex characters and a CORE_API_KEY that is not 32 hex characters are refused', (t) => {
  t.throws(() => loadConfig({ APP_ENV: 'test', ...secrets, JWT_SECRET: 'a'.repeat(63) }), { message: /JWT_SECRET/ });
  t.throws(() => loadConfig({ APP_ENV: 'test', ...secrets, JWT_SECRET: 'z'.repeat(64) }), { message: /JWT_SECRET/ });
  t.throws(() => loadConfig({ APP_ENV: 'test', ...secrets, CORE_API_KEY: 'b'.repeat(31) }), { message: /CORE_API_KEY/ });
  t.notThrows(() => loadConfig({ APP_ENV: 'test', ...secrets }));
});

test('defaults: port 8080, limits 60/100/200, IP filter off outside production, uploads 1 GiB, URLs 300 s', (t) => {
  const config = loadConfig({ APP_ENV: 'test', ...secrets });
  t.is(config.gatewayPort, 8080);
  t.deepEqual(config.rateLimit, { public: 60, apiKey: 100, jwt: 200 });
  t.false(config.ipFilter.enabled);
  t.is(config.trustProxy, 0);
  t.is(config.dms.maxUploadBytes, 1024 ** 3);
  t.is(config.dms.urlTtlSeconds, 300);
  t.is(config.jwtTtlSeconds, 28_800);
  t.false(config.cookieSecure);
  t.true(loadConfig({ APP_ENV: 'production', ...secrets, ALLOWED_ORIGINS: 'https://a', DATABASE_URL: 'x', REDIS_URL: 'y' }).cookieSecure);
  t.throws(() => loadConfig({ APP_ENV: 'staging' }), { message: /APP_ENV/ });
  t.throws(() => loadConfig({ APP_ENV: 'test', ...secrets, GATEWAY_PORT: 'eighty' }), { message: /GATEWAY_PORT/ });
});

test('in development, missing secrets are generated once under the data folder and kept', (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'config-test-'));
  const first = loadConfig({ DATA_DIR: dataDir });
  const second = loadConfig({ DATA_DIR: dataDir });
  t.regex(first.jwtSecret, /^[0-9a-f]{64}$/);
  t.regex(first.coreApiKey, /^[0-9a-f]{32}$/);
  t.is(second.jwtSecret, first.jwtSecret);
  t.is(second.coreApiKey, first.coreApiKey);
  const file = join(dataDir, 'secrets.json');
  t.is(statSync(file).mode & 0o777, 0o600);
  t.is(JSON.parse(readFileSync(file, 'utf8')).dmsUrlSecret, first.dmsUrlSecret);
  t.throws(() => loadConfig({ APP_ENV: 'test', DATA_DIR: dataDir }), { message: /test needs JWT_SECRET, CORE_API_KEY, DMS_URL_SECRET/ });
});
