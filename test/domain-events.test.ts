/**
 * The domain moves' events (docs/adr/0077-events-domain-moves-and-history.md): "every domain
 * move (accrual approve/invoice/cancel; file upload, delete, category move, legal hold; share-link
 * access; user demotion, select removed, session ended), writes one event row in the same
 * transaction as the change ... A failed write leaves no event".
 */
import test from 'ava';
import { adminSession, create, createAccount, createAccrual, login, unique } from './helpers/factories.ts';
import { upload, uploadRecord } from './helpers/files.ts';
import { api } from './helpers/platform.ts';
import { sql } from './helpers/db.ts';

interface EventRow {
  type: string;
  version: number | null;
  actor: string | null;
  cr_process_id: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}

function eventsOf(schema: string, entity: string, key: unknown): Promise<EventRow[]> {
  return sql<EventRow>(
    `select type, version, actor, cr_process_id, changes from "${schema}"."${schema}_outbox" where entity = $1 and entity_key = $2 order by seq`,
    [entity, String(key)],
  );
}

const types = (events: readonly EventRow[]) => events.map((event) => event.type);

test('an accrual move writes its own event with its changes, in place of accrual.updated; a refused move or write leaves none', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const accrual = await createAccrual(crProcessId);
  const approved = await api('POST', `/api/accrual/${accrual.id}/approve`, { token });
  t.is(approved.status, 200, approved.text);

  let events = await eventsOf('bpm', 'accrual', accrual.id);
  t.deepEqual(types(events), ['accrual.created', 'accrual.approved']);
  const approval = events[1];
  t.is(approval?.version, 1);
  t.is(approval?.actor, 'admin');
  t.deepEqual(approval?.changes.accrualStatus, { from: 'PENDING', to: 'APPROVED' });
  t.deepEqual(approval?.changes.approvedBy, { from: null, to: 'admin' });
  t.is(approval?.changes.approvedAt?.from, null);
  t.is(approval?.changes.approvedAt?.to, approved.body.approvedAt);

  // refused: a second approve (409), an update of an approved accrual (409), a move of no accrual (404)
  t.is((await api('POST', `/api/accrual/${accrual.id}/approve`, { token })).status, 409);
  t.is((await api('PUT', `/api/accrual/${accrual.id}`, { token, body: { version: 1, amount: '5.00' } })).status, 409);
  t.is((await api('POST', '/api/accrual/999999999999/approve', { token })).status, 404);
  t.deepEqual(types(await eventsOf('bpm', 'accrual', accrual.id)), ['accrual.created', 'accrual.approved']);

  const invoiced = await api('POST', `/api/accrual/${accrual.id}/invoice`, { token, body: { invoiceNo: 'INV-7' } });
  t.is(invoiced.status, 200, invoiced.text);
  t.is((await api('POST', `/api/accrual/${accrual.id}/cancel`, { token })).status, 409);
  events = await eventsOf('bpm', 'accrual', accrual.id);
  t.deepEqual(types(events), ['accrual.created', 'accrual.approved', 'accrual.invoiced']);
  t.deepEqual(events[2]?.changes.invoiceNo, { from: null, to: 'INV-7' });
  t.deepEqual(events[2]?.changes.accrualStatus, { from: 'APPROVED', to: 'INVOICED' });

  const other = await createAccrual(crProcessId);
  t.is((await api('POST', `/api/accrual/${other.id}/cancel`, { token, body: { reason: 'void' } })).status, 200);
  const cancelled = await eventsOf('bpm', 'accrual', other.id);
  t.deepEqual(types(cancelled), ['accrual.created', 'accrual.cancelled']);
  t.deepEqual(cancelled[1]?.changes.cancelReason, { from: null, to: 'void' });
});

test('a file: uploaded, moved, legal hold set and released, deleted, each its own event in its history; a refused delete or upload leaves none', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const file = await uploadRecord(token, crProcessId, 'evented bytes', 'evented.txt');
  const category = await create('dms-category', { crProcessId, categoryName: unique('Events ') });
  t.is((await api('PUT', `/api/dms-file/${file.id}/category?categoryId=${category.id}`, { token })).status, 200);
  t.is((await api('PUT', `/api/dms-file/${file.id}`, { token, body: { version: 1, legalHold: true } })).status, 200);
  t.is((await api('DELETE', `/api/dms-file/${file.id}`, { token })).status, 409);
  t.is((await api('PUT', `/api/dms-file/${file.id}`, { token, body: { version: 2, legalHold: false, description: 'cleared' } })).status, 200);
  t.is((await api('DELETE', `/api/dms-file/${file.id}`, { token })).status, 204);

  const history = await api('GET', `/api/dms-file/${file.id}/history`, { token });
  t.is(history.status, 200, history.text);
  const events = [...history.body.content].reverse();
  t.deepEqual(
    events.map((event: any) => [event.type, event.version]),
    [
      ['dms-file.uploaded', 0],
      ['dms-file.moved', 1],
      ['dms-file.legal-hold-set', 2],
      ['dms-file.legal-hold-released', 3],
      ['dms-file.deleted', 3],
    ],
  );
  t.deepEqual(events[0].changes.originalFileName, { from: null, to: 'evented.txt' });
  t.deepEqual(events[1].changes, { categoryId: { from: null, to: category.id } });
  t.deepEqual(events[2].changes, { legalHold: { from: false, to: true } });
  t.deepEqual(events[3].changes, { legalHold: { from: true, to: false }, description: { from: null, to: 'cleared' } });
  t.false('downloadUrl' in events[0].changes, 'a computed field is no change');

  await create('dms-account-config', {
    crProcessId,
    maxFileSize: 10_485_760,
    allowedMimeTypes: 'application/pdf',
    storageQuotaBytes: 1_073_741_824,
    purgeAfterDays: 30,
  });
  const before = await sql(`select count(*)::int as n from dms.dms_outbox where cr_process_id = $1 and type = 'dms-file.uploaded'`, [crProcessId]);
  t.is((await upload({ token, crProcessId, content: 'not a pdf', fileName: 'x.txt' })).status, 415);
  t.deepEqual(await sql(`select count(*)::int as n from dms.dms_outbox where cr_process_id = $1 and type = 'dms-file.uploaded'`, [crProcessId]), before);
});

test('a share link accessed writes dms-share-link.accessed with the download counted; HEAD writes none', async (t) => {
  const { token } = await adminSession();
  const { crProcessId } = await createAccount();
  const file = await uploadRecord(token, crProcessId, 'shared evented bytes');
  const link = await create('dms-share-link', { crProcessId, fileId: file.id, maxDownloads: 3 });
  // the download is counted as its stream ends, in a transaction that may commit just after the
  // client has read the last byte: its event is waited for, 5 s at most
  const accessedAfter = async (count: number): Promise<EventRow[]> => {
    let events = await eventsOf('dms', 'dms-share-link', link.id);
    for (let waited = 0; !events.some((event) => event.changes.downloadCount?.to === count) && waited < 5_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      events = await eventsOf('dms', 'dms-share-link', link.id);
    }
    return events;
  };
  const got = await api('GET', link.url);
  t.is(got.status, 200, got.text);
  let events = await accessedAfter(1);
  t.deepEqual(types(events), ['dms-share-link.created', 'dms-share-link.accessed']);
  t.deepEqual(events[1]?.changes, { downloadCount: { from: 0, to: 1 } });
  t.is(events[1]?.actor, 'anonymous');
  t.is(Number(events[1]?.cr_process_id), crProcessId);

  // a HEAD between two GETs: the second GET's event is the marker that comes after the HEAD, so an
  // event of the HEAD (or a download it counted) would stand between the two GETs' events
  const head = await api('HEAD', link.url);
  t.is(head.status, 200);
  t.is(head.headers.get('content-length'), String(Buffer.byteLength('shared evented bytes')));
  t.is((await api('GET', link.url)).status, 200);
  events = await accessedAfter(2);
  t.deepEqual(types(events), ['dms-share-link.created', 'dms-share-link.accessed', 'dms-share-link.accessed']);
  t.deepEqual(events[2]?.changes, { downloadCount: { from: 1, to: 2 } });
});

test('a super user demoted is user-info.demoted; a select removed is user-process.select-removed with the selects from/to', async (t) => {
  const { token } = await adminSession();
  const [a, b] = await Promise.all([createAccount(), createAccount()]);
  const user = await create('user-info', {
    crProcessId: 1,
    userCode: unique('demo-'),
    userDescription: 'Demoted',
    password: 'demoted-pass-1',
    superUser: true,
  });
  const demoted = await api('PUT', `/api/user-info/${user.id}`, { token, body: { version: 0, superUser: false } });
  t.is(demoted.status, 200, demoted.text);
  const userEvents = await eventsOf('core', 'user-info', user.id);
  t.deepEqual(types(userEvents), ['user-info.created', 'user-info.demoted']);
  t.deepEqual(userEvents[1]?.changes, { superUser: { from: true, to: false } });
  for (const event of userEvents) t.false('password' in event.changes || 'tokenVersion' in event.changes, event.type);

  const process = await create('user-process', { crProcessId: 1, userCode: user.userCode, userProcessSelects: [{ accountNo: a.accountNo }] });
  const added = await api('PUT', `/api/user-process/${process.id}`, {
    token,
    body: { version: 0, userProcessSelects: [{ accountNo: a.accountNo }, { accountNo: b.accountNo }] },
  });
  t.is(added.status, 200, added.text);
  const removed = await api('PUT', `/api/user-process/${process.id}`, { token, body: { version: 1, userProcessSelects: [{ accountNo: b.accountNo }] } });
  t.is(removed.status, 200, removed.text);
  const processEvents = await eventsOf('core', 'user-process', process.id);
  t.deepEqual(types(processEvents), ['user-process.created', 'user-process.updated', 'user-process.select-removed']);
  t.deepEqual(processEvents[0]?.changes.userProcessSelects, { from: null, to: [a.accountNo] });
  t.deepEqual(processEvents[1]?.changes.userProcessSelects, { from: [a.accountNo], to: [a.accountNo, b.accountNo].sort() });
  t.deepEqual(processEvents[2]?.changes.userProcessSelects, { from: [a.accountNo, b.accountNo].sort(), to: [b.accountNo] });
});

test('a session ended by logout, or over the API key, writes session.ended once', async (t) => {
  const account = await createAccount();
  const userCode = unique('ended-');
  await create('user-info', { crProcessId: account.crProcessId, userCode, userDescription: 'Ended', password: 'ended-pass-1' });
  await create('user-process', { crProcessId: account.crProcessId, userCode, userProcessSelects: [{ accountNo: account.accountNo }] });
  const sessionIds = async () =>
    (await sql<{ session_id: string }>('select session_id from core.session_log where user_code = $1 order by id', [userCode])).map((row) => row.session_id);

  const first = await login(userCode, 'ended-pass-1');
  t.is((await api('POST', '/api/auth/logout', { token: first.token })).status, 204);
  const [sid] = await sessionIds();
  const ended = await eventsOf('core', 'session', sid);
  t.deepEqual(types(ended), ['session.ended']);
  t.is(ended[0]?.actor, userCode);
  t.is(Number(ended[0]?.cr_process_id), account.crProcessId);
  t.deepEqual(ended[0]?.changes.active, { from: true, to: false });

  await login(userCode, 'ended-pass-1');
  const second = (await sessionIds())[1];
  for (let i = 0; i < 2; i++) t.is((await api('PUT', `/api/session/${second}`, { apiKey: true, body: { active: false } })).status, 200);
  t.deepEqual(types(await eventsOf('core', 'session', second)), ['session.ended']);
});

test('a write that fails after its row was flushed (a hook refusing) rolls back its event with it', async (t) => {
  const { token } = await adminSession();
  const account = await createAccount();
  const user = await create('user-info', { crProcessId: 1, userCode: unique('rolled-'), userDescription: 'Rolled', password: 'rolled-pass-1' });
  const process = await create('user-process', { crProcessId: 1, userCode: user.userCode, userProcessSelects: [{ accountNo: account.accountNo }] });
  // the row is written first, then its selects are checked: an unknown account is 400 after the flush
  const refused = await api('PUT', `/api/user-process/${process.id}`, {
    token,
    body: { version: 0, userDescription: 'Never', userProcessSelects: [{ accountNo: unique('NO-SUCH-') }] },
  });
  t.is(refused.status, 400, refused.text);
  t.deepEqual(types(await eventsOf('core', 'user-process', process.id)), ['user-process.created']);
  const history = await api('GET', `/api/user-process/${process.id}/history`, { token });
  t.is(history.body.totalElements, 1);
  t.like((await api('GET', `/api/user-process/${process.id}`, { token })).body, { version: 0, userDescription: 'Rolled' });
});

test('a password change is user-info.password-changed with its version and no changes: the password never enters an event', async (t) => {
  const account = await createAccount();
  const userCode = unique('pw-');
  const user = await create('user-info', { crProcessId: account.crProcessId, userCode, userDescription: 'Changing', password: 'changing-pass-1' });
  await create('user-process', { crProcessId: account.crProcessId, userCode, userProcessSelects: [{ accountNo: account.accountNo }] });
  const session = await login(userCode, 'changing-pass-1');
  const wrong = await api('POST', '/api/auth/change-password', {
    token: session.token,
    body: { currentPassword: 'not-it-at-all', newPassword: 'changed-pass-2' },
  });
  t.is(wrong.status, 400, wrong.text);
  const changed = await api('POST', '/api/auth/change-password', {
    token: session.token,
    body: { currentPassword: 'changing-pass-1', newPassword: 'changed-pass-2' },
  });
  t.is(changed.status, 204, changed.text);
  const events = await eventsOf('core', 'user-info', user.id);
  t.deepEqual(
    events.map((event) => [event.type, event.version, event.changes]),
    [
      ['user-info.created', 0, events[0]?.changes],
      ['user-info.password-changed', 1, {}],
    ],
  );
  t.notRegex(JSON.stringify(events), /changing-pass|changed-pass|\$2[aby]\$/);
});
