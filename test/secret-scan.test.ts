/**
 * The closing scan of `npm test` for secrets in the platform's log (test/helpers/secret-scan.ts)
 * must be able to fail: these feed it logs with a leak of each kind it looks for.
 */
import test from 'ava';
import { scanForSecrets, scanRunLog } from './helpers/secret-scan.ts';

const access =
  '[gateway]   {"level":"info","service":"gateway","requestId":"r1","method":"GET","route":"/api/health","status":200,"durationMs":1,"msg":"request completed"}';
const line = (fields: string) => `[core-svc]  {"level":"error","service":"core-svc",${fields},"msg":"unexpected failure"}`;
const platformSecrets = { ADMIN_PASSWORD: 'Adm1n-pa55word', CORE_API_KEY: '0123456789abcdef0123456789abcdef' };

test('a clean log with access lines passes', (t) => {
  const result = scanRunLog([access, line('"refId":"x"')].join('\n'), platformSecrets, ['share-secret-1']);
  t.true(result.passed);
  t.regex(result.report[0] ?? '', /^ok - /);
});

test('a known secret fails the scan, as it is and JSON-escaped, naming the line but never the value', (t) => {
  const quoted = 'pa"ss\\word-1';
  const log = [access, line(`"detail":"${platformSecrets.CORE_API_KEY}"`), line(`"detail":${JSON.stringify(quoted)}`)].join('\n');
  const result = scanRunLog(log, platformSecrets, [quoted]);
  t.false(result.passed);
  t.deepEqual(
    scanForSecrets(log, [
      { name: 'CORE_API_KEY', value: platformSecrets.CORE_API_KEY },
      { name: 'a password a test sent', value: quoted },
    ]).leaks,
    [
      { name: 'CORE_API_KEY', line: 2, source: 'core-svc' },
      { name: 'a password a test sent', line: 3, source: 'core-svc' },
    ],
  );
  t.false(result.report.join('\n').includes(platformSecrets.CORE_API_KEY));
});

test('shaped secrets fail the scan without being known: a JWT, a bcrypt hash, a signed URL token', (t) => {
  const jwt = 'eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJl';
  const hash = `$2b$04$${'a'.repeat(53)}`;
  const url = '/api/dms-file/download/7?token=Zm9vYmFyYmF6cXV4cXV1eA&expires=1&inline=false';
  for (const leak of [jwt, hash, url]) {
    const result = scanForSecrets([access, line(`"detail":"${leak}"`)].join('\n'), []);
    t.is(result.leaks.length, 1, leak);
  }
  t.is(scanForSecrets(line('"path":"/api/dms-file/download/7?token=[REDACTED]&expires=1"'), []).leaks.length, 0, 'a redacted token is no leak');
});

test('a log without access lines fails: the scan would have looked at nothing the run wrote', (t) => {
  const result = scanRunLog(line('"refId":"x"'), platformSecrets, []);
  t.false(result.passed);
});
