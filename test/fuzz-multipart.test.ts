/**
 * Hostile multipart framing on the upload route, as fuzz.test.ts sends hostile JSON everywhere: the
 * small valid form cut at every offset, missing and garbled boundaries, endless header lines, bad
 * part headers, NUL and malformed UTF-8 in names (helpers/multipart-corpus.ts), sent by a user who
 * holds `dms-file:write` and nothing else.
 *
 * docs/interface.md#errors: "SVC-SYS-2001 400 validation failed"; the task's rule: no request can stop a
 * process, and a failed write leaves nothing. So every answer is 200 (a body that happens to be a
 * valid form) or a 4xx with the error body; dms-svc is the same process afterwards (its
 * process_start_time_seconds unchanged, its health 200); the tenant has exactly one dms-file row and
 * one audit row per 200, and no temporary `.upload-*.part` file is left in DMS_STORAGE_DIR.
 */
import { readdir } from 'node:fs/promises';
import test from 'ava';
import { sql } from './helpers/db.ts';
import { createAccount, userWithRoles } from './helpers/factories.ts';
import { storageDir } from './helpers/files.ts';
import { multipartCorpus } from './helpers/multipart-corpus.ts';
import { platform } from './helpers/platform.ts';
import { rawRequest } from './helpers/raw-http.ts';

const PARALLEL = 8;

/** dms-svc's start time as its own metrics port reports it: a restarted process has a new one. */
async function dmsStartTime(): Promise<number> {
  const res = await fetch(`http://${platform.metrics['dms-svc']}/metrics`);
  const text = await res.text();
  const line = /^process_start_time_seconds (\d+(?:\.\d+)?)$/m.exec(text);
  if (res.status !== 200 || !line) throw new Error(`dms-svc metrics: ${res.status} ${text.slice(0, 200)}`);
  return Number(line[1]);
}

/** The upload temporaries in DMS_STORAGE_DIR. */
async function temporaries(): Promise<string[]> {
  return (await readdir(storageDir())).filter((name) => /^\.upload-.*\.part$/.test(name));
}

test('malformed multipart framing is a 4xx with the error body, keeps nothing and stops no process', async (t) => {
  const started = await dmsStartTime();
  const before = new Set(await temporaries());
  const account = await createAccount();
  const writer = await userWithRoles(account, ['dms-file:write']);
  const cases = multipartCorpus(account.crProcessId);
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  let accepted = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: PARALLEL }, async () => {
      while (next < cases.length) {
        const c = cases[next++]!;
        const res = await rawRequest('POST', '/api/dms-file/upload', { token: writer.token, headers: { 'content-type': c.contentType }, body: c.body }).catch(
          (error: unknown) => ({ status: 0, body: undefined, text: `no answer: ${String(error)}` }),
        );
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
        if (res.status === 200) accepted++;
        else if (res.status < 400 || res.status >= 500 || res.body?.status !== 'ERROR' || !/^SVC-SYS-\d{4}$/.test(String(res.body?.error_code))) {
          problems.push(`${c.label} → ${res.status} ${res.text.slice(0, 160)}`);
        }
      }
    }),
  );
  t.log(`${cases.length} bodies; answers by status: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  t.deepEqual(problems, [], `${problems.length} of ${cases.length} answers were wrong`);
  // the whole valid form is among the cases: the corpus reached a live upload route
  t.true(accepted >= 1);

  t.is(await dmsStartTime(), started, 'dms-svc was restarted: a request stopped it');
  const health = await fetch(`http://${platform.metrics['dms-svc']}/health`);
  t.is(health.status, 200);

  const [files] = await sql<{ count: string }>('select count(*) from dms.dms_file where cr_process_id = $1', [account.crProcessId]);
  const [audits] = await sql<{ count: string }>('select count(*) from dms.dms_audit_log where cr_process_id = $1', [account.crProcessId]);
  t.is(Number(files?.count), accepted, 'a row for each 200, none for a refusal');
  t.is(Number(audits?.count), accepted, 'an UPLOAD audit row for each 200, none for a refusal');
  // uploads of other test files may be under way: theirs finish within moments, a leftover stays
  let left: string[] = [];
  for (let waited = 0; waited <= 5000; waited += 250) {
    left = (await temporaries()).filter((name) => !before.has(name));
    if (left.length === 0) break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  t.deepEqual(left, [], 'no upload temporary is left behind');
});
