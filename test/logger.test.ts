/**
 * The logger every process uses (libs/kit/src/log/logger.ts): JSON lines on stdout, the request id on
 * every line written while serving a request, secret fields redacted and errors scrubbed
 * (docs/adr/0044-logs-are-json-lines-with-an-access.md). Run in a child process, whose stdout is what an operator collects.
 */
import { spawnSync } from 'node:child_process';
import test from 'ava';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';

const JWT = 'eyJhbGciOiJIUzUxMiJ9.eyJzdWIiOiJhZG1pbiJ9.c2lnbmF0dXJlLXBhcnQ';
const HASH = `$2b$10$${'N'.repeat(53)}`;

const script = `
import { createLogger } from './libs/kit/src/log/logger.ts';
import { withRequestId } from './libs/kit/src/log/request-id.ts';
const log = createLogger('probe-svc', 'info');
log.debug('not at info');
log.info({ port: 1 }, 'listening');
withRequestId('req-1', async () => {
  await new Promise((r) => setTimeout(r, 5));
  log.warn({ password: 'plain-pass', user: { newPassword: 'new-pass', apiKey: 'k-1' }, headers: { authorization: 'Bearer x', cookie: 'SVC_SESSION=y', 'x-api-key': 'z' }, call: { headers: { cookie: 'SVC_SESSION=w', accept: 'text/plain' }, token: 't-1', id: 7 } }, 'fields');
  const error = new Error('token ${JWT} and hash ${HASH} at /x?token=sig-123&expires=1 and /api/dms-share-link/public/tok-456');
  error.query = 'insert … ${HASH}';
  log.error({ err: error }, 'failed');
});
`;

function run(): Record<string, any>[] {
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT_DIR, encoding: 'utf8' });
  if (child.status !== 0) throw new Error(child.stderr);
  return child.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, any>);
}

test('one JSON object per line on stdout, with level name, ISO time, service and msg; below the level nothing', (t) => {
  const [listening, ...rest] = run();
  t.like(listening, { level: 'info', service: 'probe-svc', port: 1, msg: 'listening' });
  t.false('requestId' in (listening ?? {}), 'outside a request, no id');
  t.regex(listening?.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  t.is(rest.length, 2);
});

test('lines written while serving a request carry its id, across awaits', (t) => {
  const [, fields, failed] = run();
  t.is(fields?.requestId, 'req-1');
  t.is(failed?.requestId, 'req-1');
});

test('passwords, API keys, authorization and cookie headers are redacted, at the top and one level down; JWTs, bcrypt hashes and URL tokens are scrubbed from errors, whose other properties are left out', (t) => {
  const [, fields, failed] = run();
  t.deepEqual(fields?.password, '[REDACTED]');
  t.deepEqual(fields?.user, { newPassword: '[REDACTED]', apiKey: '[REDACTED]' });
  t.deepEqual(fields?.headers, { authorization: '[REDACTED]', cookie: '[REDACTED]', 'x-api-key': '[REDACTED]' });
  t.deepEqual(fields?.call, { headers: { cookie: '[REDACTED]', accept: 'text/plain' }, token: '[REDACTED]', id: 7 }, 'one level down, headers included');
  const text = JSON.stringify(failed);
  for (const secret of [JWT, HASH, 'sig-123', 'tok-456']) t.false(text.includes(secret), secret);
  t.is(failed?.err.type, 'Error');
  t.regex(
    failed?.err.message,
    /^token \[REDACTED\] and hash \[REDACTED\] at \/x\?token=\[REDACTED\]&expires=1 and \/api\/dms-share-link\/public\/\[REDACTED\]$/,
  );
  t.false('query' in failed!.err);
});
