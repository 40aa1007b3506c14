/**
 * Webhooks end to end (docs/interface.md#webhooks): a subscription's secret and its rotation, every
 * event of a set of writes delivered and signed per the Standard Webhooks specification (checked
 * with the standardwebhooks package's own verify), a rolled-back write emitting nothing, the
 * delivery log and a manual redelivery with the same webhook-id.
 */
import { createHmac } from 'node:crypto';
import test from 'ava';
import { assertInvalid } from './helpers/error-body.ts';
import { adminSession, create, createPartner, freshTenant, unique } from './helpers/factories.ts';
import { soleDispatcher } from './helpers/dispatchers.ts';
import { api } from './helpers/platform.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

async function subscribe(crProcessId: number, url: string, eventTypes: string[]) {
  return create('webhook-subscription', { crProcessId, url, eventTypes, description: 'test' });
}

test('create answers the secret once (whsec_ + base64 of 24 bytes); get and list never; rotate answers a new one', async (t) => {
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  const created = await subscribe(crProcessId, 'http://127.0.0.1:9/x', ['branch.*', 'accrual.approved']);
  t.regex(created.secret, SECRET);
  t.is(Buffer.from(created.secret.slice('whsec_'.length), 'base64').length, 24);
  t.deepEqual(created.eventTypes, ['branch.*', 'accrual.approved']);
  t.true(created.status);
  t.is(created.disabledAt, null);
  const read = await api('GET', `/api/webhook-subscription/${created.id}`, { token });
  t.is(read.status, 200);
  t.is(read.body.secret, null);
  t.deepEqual(read.body.eventTypes, ['branch.*', 'accrual.approved']);
  const listed = await api('POST', '/api/webhook-subscription/list', { token, body: { filter: { crProcessId } } });
  t.is(listed.body.content[0].secret, null);
  const rotated = await api('POST', `/api/webhook-subscription/${created.id}/rotate-secret`, { token });
  t.is(rotated.status, 200, rotated.text);
  t.regex(rotated.body.secret, SECRET);
  t.not(rotated.body.secret, created.secret);
  t.is(rotated.body.version, created.version + 1);
  const updated = await api('PUT', `/api/webhook-subscription/${created.id}`, { token, body: { version: rotated.body.version, eventTypes: ['*'] } });
  t.is(updated.status, 200, updated.text);
  t.deepEqual(updated.body.eventTypes, ['*']);
  t.is(updated.body.secret, null);
});

test('bad urls and event types are 400 SVC-SYS-2001 naming the field; a pattern must match a type of the event catalogue', async (t) => {
  const { token } = await adminSession();
  const crProcessId = freshTenant();
  const cases: [Record<string, unknown>, string][] = [
    [{ url: 'ftp://example.com/x', eventTypes: ['*'] }, 'url'],
    [{ url: 'http://user:pass@example.com/x', eventTypes: ['*'] }, 'url'],
    [{ url: 'not a url', eventTypes: ['*'] }, 'url'],
    [{ url: 'http://169.254.169.254/latest/meta-data', eventTypes: ['*'] }, 'url'],
    [{ url: 'http://[fe80::1]/x', eventTypes: ['*'] }, 'url'],
    [{ url: 'http://[fd00:ec2::254]/x', eventTypes: ['*'] }, 'url'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['Branch'] }, 'eventTypes[0]'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['branch.*', '*.created'] }, 'eventTypes[1]'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: [] }, 'eventTypes'],
    // of the grammar, but matching no type of docs/interface.md#events: it would never fire
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['acrual.*'] }, 'eventTypes[0]'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['branch.*', 'walk.*'] }, 'eventTypes[1]'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['accrual.approved', 'branch.approved'] }, 'eventTypes[1]'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['dms-file.created'] }, 'eventTypes[0]'],
    [{ url: 'http://127.0.0.1:9/x', eventTypes: ['license-history.*'] }, 'eventTypes[0]'],
  ];
  for (const [body, field] of cases) {
    const res = await api('POST', '/api/webhook-subscription', { token, body: { crProcessId, ...body } });
    assertInvalid(t, res, field);
  }
  // an update is checked alike
  const subscription = await subscribe(crProcessId, 'http://127.0.0.1:9/x', ['*']);
  const moved = await api('PUT', `/api/webhook-subscription/${subscription.id}`, {
    token,
    body: { version: subscription.version, url: 'http://169.254.169.254/latest/meta-data' },
  });
  assertInvalid(t, moved, 'url');
  const retyped = await api('PUT', `/api/webhook-subscription/${subscription.id}`, { token, body: { version: subscription.version, eventTypes: ['Nope'] } });
  assertInvalid(t, retyped, 'eventTypes[0]');
  const misspelt = await api('PUT', `/api/webhook-subscription/${subscription.id}`, {
    token,
    body: { version: subscription.version, eventTypes: ['*', 'acrual.approved'] },
  });
  assertInvalid(t, misspelt, 'eventTypes[1]');
  t.deepEqual((await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body.eventTypes, ['*']);
  // every kind of pattern that matches a type passes: a type, an entity's, a move's, and sessions'
  const fine = await subscribe(crProcessId, 'http://127.0.0.1:9/x', ['dms-file.uploaded', 'accrual.*', 'accrual.cancelled', 'session.ended']);
  t.deepEqual(fine.eventTypes, ['dms-file.uploaded', 'accrual.*', 'accrual.cancelled', 'session.ended']);
});

test('every event of a set of writes arrives once per matching subscription, signed; a rolled-back write emits nothing', async (t) => {
  // one attempt per delivery: no test's own dispatcher, killed mid-attempt, may take one meanwhile
  await soleDispatcher(t);
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const crProcessId = freshTenant();
  const subscription = await subscribe(crProcessId, `${receiver.url}/hook`, ['business-partner.*']);
  receiver.secret = subscription.secret;
  const { token } = await adminSession();
  const partners: any[] = [];
  for (let i = 0; i < 5; i++) partners.push(await createPartner(crProcessId));
  const first = partners[0];
  const renamed = await api('PUT', `/api/business-partner/${first.id}`, { token, body: { version: first.version, partnerName: unique('Renamed ') } });
  t.is(renamed.status, 200);
  // a duplicate code: 409, rolled back with its event
  const duplicate = await api('POST', '/api/business-partner', {
    token,
    body: { crProcessId, partnerCode: first.partnerCode, partnerName: 'dup', partnerType: 'CUSTOMER' },
  });
  t.is(duplicate.status, 409);
  // a write committed after the rolled-back one: the fan-out reads each outbox in order, so once this
  // one's delivery is made, an event of the rolled-back write would have had its delivery made too
  const marker = await createPartner(crProcessId);
  partners.push(marker);
  await receiver.until((received) => received.some((r) => r.json?.data?.id === marker.id));
  const log = await deliveredLog(token, crProcessId, subscription.id, 7);
  t.is(log.length, 7, JSON.stringify(log.map((row) => [row.eventType, row.entityKey])));
  t.false(
    log.some((row) => row.eventType === 'business-partner.created' && !partners.some((p) => String(p.id) === row.entityKey)),
    'no delivery of the rolled-back create',
  );
  t.is(receiver.received.length, 7, receiver.received.map((r) => r.json?.type).join(','));
  t.true(
    receiver.received.every((r) => r.verified),
    'every signature verifies',
  );
  // and by the specification's algorithm written out: HMAC-SHA256 of "<id>.<timestamp>.<body>", keyed with the secret's bytes
  const key = Buffer.from(subscription.secret.slice('whsec_'.length), 'base64');
  for (const r of receiver.received) {
    t.is(r.signature, `v1,${createHmac('sha256', key).update(`${r.id}.${r.timestamp}.${r.body}`).digest('base64')}`);
    t.true(Math.abs(Number(r.timestamp) - Date.now() / 1000) < 60);
  }
  t.true(receiver.received.every((r) => r.signature.startsWith('v1,')));
  t.is(new Set(receiver.received.map((r) => r.id)).size, 7);
  const created = receiver.received.filter((r) => r.json.type === 'business-partner.created');
  t.deepEqual(created.map((r) => r.json.data.id).sort(), partners.map((p) => p.id).sort());
  const update = receiver.received.find((r) => r.json.type === 'business-partner.updated');
  t.is(update?.json.data.id, first.id);
  t.is(update?.json.data.key, String(first.id));
  t.is(update?.json.data.crProcessId, crProcessId);
  t.is(update?.json.data.entity, 'business-partner');
  t.is(update?.json.data.version, 1);
  t.is(update?.json.data.changes.partnerName.from, first.partnerName);
  t.regex(update?.json.timestamp ?? '', /^\d{4}-\d\d-\d\dT/);
  // a subscription of another tenant would never see these (webhooks-tenancy.test.ts)
  for (const row of log) {
    t.is(row.deliveryStatus, 'DELIVERED');
    t.is(row.attempts, 1);
    t.is(row.lastStatusCode, 200);
    t.is(row.responseExcerpt, 'ok');
    t.true(typeof row.lastLatencyMs === 'number');
    t.truthy(row.deliveredAt);
  }
  // core-svc's /metrics count each attempt exactly: webhooks-metrics.test.ts, on a platform of its
  // own, since other files' deliveries move the suite's counters too
  // redeliver: the same webhook-id again
  const [row] = log;
  const again = await api('POST', `/api/webhook-delivery/${row.id}/redeliver`, { token });
  t.is(again.status, 200, again.text);
  t.is(again.body.deliveryStatus, 'PENDING');
  await receiver.until((received) => received.length >= 8);
  t.is(receiver.received[7]?.id, row.eventId);
  t.true(receiver.received[7]?.verified);
  const filtered = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId, eventType: 'business-partner.updated' } } });
  t.is(filtered.body.content.length, 1);
});

/** The subscription's delivery log once `count` of its rows are DELIVERED (or what it holds after 10 s). */
async function deliveredLog(token: string, crProcessId: number, subscriptionId: number, count: number): Promise<any[]> {
  let rows: any[] = [];
  for (let tries = 0; tries < 50; tries++) {
    const res = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId, subscriptionId }, size: 100 } });
    rows = res.body.content ?? [];
    if (rows.filter((row) => row.deliveryStatus === 'DELIVERED').length >= count) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return rows;
}

test('a failing endpoint is retried per the schedule, then the delivery FAILED; a redirect is a failed attempt, never followed', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const target = await startReceiver();
  t.teardown(() => target.close());
  receiver.answer = (_req, res) => {
    res.statusCode = 307;
    res.setHeader('location', `${target.url}/private`);
    res.end('moved');
  };
  const crProcessId = freshTenant();
  const subscription = await subscribe(crProcessId, receiver.url, ['business-partner.created']);
  receiver.secret = subscription.secret;
  await createPartner(crProcessId);
  // one attempt and the three retries of the suite's schedule (200, 400, 800 ms)
  await receiver.until((received) => received.length >= 4, 20_000);
  const { token } = await adminSession();
  let row: any;
  for (let tries = 0; tries < 50; tries++) {
    const log = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId, status: true } } });
    row = log.body.content[0];
    if (row?.deliveryStatus === 'FAILED') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  t.is(row?.deliveryStatus, 'FAILED');
  t.is(row?.attempts, 4);
  t.is(row?.lastStatusCode, 307);
  t.regex(row?.lastError ?? '', /redirect/);
  t.is(row?.nextAttemptAt, null);
  t.is(new Set(receiver.received.map((r) => r.id)).size, 1, 'every attempt carries the same webhook-id');
  t.true(receiver.received.every((r) => r.verified));
  t.is(target.received.length, 0, 'the redirect target is never called');
});
