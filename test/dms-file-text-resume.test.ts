/**
 * "The worker killed mid-file resumes the file later" (issue 43): a platform of the test's own on a
 * fresh database, its workers supervised as in production, so that the dms-worker killed is the one
 * reading the file. The run's lease lapses, the queue's retry (or the sweep) takes the file again,
 * and the file ends DONE, its attempts counting both runs (dms-svc/src/text/read-file-text.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { imagePdf, renderedPng, textPdf } from './helpers/documents.ts';
import { upload } from './helpers/files.ts';
import { api } from './helpers/platform.ts';
import { supervisedPlatform } from './helpers/supervised-platform.ts';
import './helpers/text-tools.ts';

/** A scan long enough to be read for several seconds: pages of OCR. */
const PAGES = 8;

test('a dms-worker killed mid-file: the file is taken again and ends DONE', async (t) => {
  t.timeout(600_000);
  const own = await supervisedPlatform(t, 'text', { JOB_POLL_INTERVAL_MS: '500', DMS_TEXT_SWEEP_INTERVAL_SECONDS: '5' });
  const { baseUrl, token } = own;

  const scan = await imagePdf(await renderedPng(await textPdf(['The warehouse invoice is attached.', 'Kira sözleşmesi ve teslimat']), 300), PAGES);
  const uploaded = await upload({ baseUrl, token, crProcessId: 7, content: scan, fileName: 'scan.pdf', type: 'application/pdf' });
  t.is(uploaded.status, 200, uploaded.text);
  const fileId = uploaded.body.fileId as number;
  const textOf = async () => (await api('GET', `/api/dms-file/${fileId}/text`, { baseUrl, token })).body;

  let text = await textOf();
  for (const deadline = Date.now() + 120_000; text.status === 'PENDING' && Date.now() < deadline; text = await textOf()) await delay(50);
  t.is(text.status, 'RUNNING', `the file before the kill: ${JSON.stringify(text)}`);
  // a page or two into the OCR
  await delay(1500);
  t.is((await textOf()).status, 'RUNNING', 'still being read at the kill');
  process.kill(own.pids['dms-worker']!, 'SIGKILL');

  for (const deadline = Date.now() + 300_000; ['PENDING', 'RUNNING'].includes(text.status) && Date.now() < deadline; text = await textOf()) await delay(500);
  t.is(text.status, 'DONE', JSON.stringify(text).slice(0, 400));
  t.true(text.attempts >= 2, `the file was taken again: ${text.attempts} attempts`);
  t.is(text.pages, PAGES);
  t.regex(text.text, /warehouse/i);
  t.true((own.restarts.get('dms-worker') ?? 0) >= 1, 'the dms-worker was restarted');
  const found = await api('GET', `/api/dms-file/search?crProcessId=7&searchTerm=warehouse`, { baseUrl, token });
  t.true(
    found.body.some((file: { id: number }) => file.id === fileId),
    'and its words are found',
  );
});
