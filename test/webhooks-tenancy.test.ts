/**
 * Tenancy and endpoint health (docs/interface.md#webhooks): a subscription of tenant A never gets
 * tenant B's events, and a user of tenant A reaches neither B's subscriptions nor their deliveries;
 * an endpoint that keeps failing is disabled and says so, and setting status true again re-enables it.
 */
import test from 'ava';
import { adminSession, create, createAccount, createPartner, freshTenant, userWithRoles } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

test("tenant A's subscription never receives tenant B's events, nor sees B's subscriptions and deliveries", async (t) => {
  const receiverA = await startReceiver();
  const receiverB = await startReceiver();
  t.teardown(() => Promise.all([receiverA.close(), receiverB.close()]));
  const [accountA, accountB] = await Promise.all([createAccount(), createAccount()]);
  const a = accountA.crProcessId as number;
  const b = accountB.crProcessId as number;
  const subA = await create('webhook-subscription', { crProcessId: a, url: receiverA.url, eventTypes: ['*'] });
  const subB = await create('webhook-subscription', { crProcessId: b, url: receiverB.url, eventTypes: ['*'] });
  receiverA.secret = subA.secret;
  receiverB.secret = subB.secret;
  await createPartner(a);
  for (let i = 0; i < 5; i++) await createPartner(b);
  const partnersOf = (received: { json: any }[]) => received.filter((r) => r.json.type === 'business-partner.created');
  await receiverB.until((received) => partnersOf(received).length >= 5);
  await receiverA.until((received) => partnersOf(received).length >= 1);
  await new Promise((resolve) => setTimeout(resolve, 1_500));
  // `*`: A's own events, its subscription's creation among them, and none of B's
  t.is(partnersOf(receiverA.received).length, 1);
  t.true(receiverA.received.some((r) => r.json.type === 'webhook-subscription.created' && r.json.data.id === subA.id));
  t.true(receiverA.received.every((r) => r.json.data.crProcessId === a));
  t.true(receiverB.received.every((r) => r.json.data.crProcessId === b));

  const userA = await userWithRoles(accountA, ['webhook-subscription:read', 'webhook-delivery:read', 'webhook-delivery:write']);
  t.is((await api('GET', `/api/webhook-subscription/${subB.id}`, { token: userA.token })).status, 404);
  t.is((await api('GET', `/api/webhook-subscription/${subA.id}`, { token: userA.token })).status, 200);
  const { token } = await adminSession();
  const logB = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId: b } } });
  const deliveryB = logB.body.content[0];
  t.is((await api('GET', `/api/webhook-delivery/${deliveryB.id}`, { token: userA.token })).status, 404);
  t.is((await api('POST', `/api/webhook-delivery/${deliveryB.id}/redeliver`, { token: userA.token })).status, 404);
  t.is((await api('POST', '/api/webhook-delivery/list', { token: userA.token, body: { filter: { crProcessId: b } } })).status, 403);
  const own = await api('POST', '/api/webhook-delivery/list', { token: userA.token, body: { filter: { crProcessId: a } } });
  t.is(own.status, 200);
  t.true(own.body.content.length >= 2);
  t.true(own.body.content.every((row: { crProcessId: number }) => row.crProcessId === a));
  // rotate needs webhook-subscription:write, and so does a create: refused before its url is even looked at
  t.is((await api('POST', `/api/webhook-subscription/${subA.id}/rotate-secret`, { token: userA.token })).status, 403);
  const refused = await api('POST', '/api/webhook-subscription', {
    token: userA.token,
    body: { crProcessId: a, url: 'http://169.254.169.254/', eventTypes: ['*'] },
  });
  t.is(refused.status, 403, refused.text);
});

test('an endpoint failing for WEBHOOK_DISABLE_AFTER_MS is disabled and says so; status true re-enables it', async (t) => {
  // the suite's core-svc retries after 200, 400 and 800 ms and disables after 2.5 s of failures (test/run.ts)
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  receiver.answer = (_req, res) => {
    res.statusCode = 503;
    res.end('down for maintenance');
  };
  const crProcessId = freshTenant();
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['business-partner.*'] });
  const { token } = await adminSession();
  let read: any;
  // a new event every 300 ms keeps deliveries failing until the endpoint has failed for 2.5 s
  for (let tries = 0; tries < 60; tries++) {
    await createPartner(crProcessId);
    read = (await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body;
    if (read.status === false) break;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  t.is(read.status, false);
  t.truthy(read.disabledAt);
  t.regex(read.disabledReason ?? '', /failing since/);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const attemptsAtDisable = receiver.received.length;
  const log = (await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId, deliveryStatus: 'PENDING' } } })).body.content;
  t.true(log.length > 0, 'deliveries wait while the subscription is disabled');
  t.is(log[0].lastStatusCode, 503);
  t.is(log[0].responseExcerpt, 'down for maintenance');
  // disabled: no more attempts, though retries are due
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  t.is(receiver.received.length, attemptsAtDisable);
  // re-enabled: the endpoint answers now, and the waiting deliveries go out
  receiver.answer = (_req, res) => res.end('ok');
  const enabled = await api('PUT', `/api/webhook-subscription/${subscription.id}`, { token, body: { version: read.version, status: true } });
  t.is(enabled.status, 200, enabled.text);
  t.true(enabled.body.status);
  t.is(enabled.body.disabledAt, null);
  t.is(enabled.body.disabledReason, null);
  const waiting = new Set(log.map((row: { eventId: string }) => row.eventId));
  await receiver.until((received) => [...waiting].every((id) => received.some((r) => r.id === id && r.at > 0)) && received.length > attemptsAtDisable);
  t.pass();
});
