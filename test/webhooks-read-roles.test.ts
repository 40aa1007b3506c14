/**
 * What a webhook carries for whom (docs/interface.md#webhooks): "an event reaches the endpoint only
 * while the subscription's `owner` may read its record: active, working in the tenant and holding
 * `<entity>:read` there". A subscription may not name an entity its writer cannot read; `*` carries
 * only what the owner reads; a demotion counts from the next change and at a retry, a deactivation
 * disables the subscription, and whoever updates a subscription becomes its owner.
 *
 * An absence is proved by a later marker: the fan-out makes an outbox's deliveries in `seq` order,
 * so once the delivery of a later event of the same outbox exists, the log holds every delivery the
 * earlier events made.
 */
import test from 'ava';
import {
  adminSession,
  create,
  createAccount,
  createGroupWithRoles,
  createPartner,
  createProduct,
  createUser,
  unique,
  userWithRoles,
} from './helpers/factories.ts';
import { assertErrorBody, assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';
import { startReceiver, type Received } from './helpers/webhook-receiver.ts';

const WEBHOOK_ROLES = ['webhook-subscription:read', 'webhook-subscription:write', 'webhook-delivery:read'];

/** The subscription's delivery log, as the admin reads it. */
async function deliveriesOf(crProcessId: number, subscriptionId: number): Promise<any[]> {
  const { token } = await adminSession();
  const res = await api('POST', '/api/webhook-delivery/list', { token, body: { size: 100, filter: { crProcessId, subscriptionId } } });
  if (res.status !== 200) throw new Error(`delivery log: ${res.status} ${res.text}`);
  return res.body.content;
}

/** Reads until `done` holds, or fails after `timeoutMs`. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`not in ${timeoutMs} ms: ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const ofEntity = (entity: string) => (received: Received) => received.json?.data?.entity === entity;

test('a user holding only the webhook roles cannot name user-info or business-partner, and `*` brings it neither', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const crProcessId = account.crProcessId as number;
  const user = await userWithRoles(account, [...WEBHOOK_ROLES, 'product:read']);
  const { token } = await adminSession();
  t.is((await api('GET', `/api/business-partner/${(await createPartner(crProcessId)).id}`, { token: user.token })).status, 403);

  for (const eventTypes of [['user-info.*', 'business-partner.*'], ['business-partner.updated'], ['product.*', 'user-info.created']]) {
    const refused = await api('POST', '/api/webhook-subscription', { token: user.token, body: { crProcessId, url: receiver.url, eventTypes } });
    assertErrorBody(t, refused, 403, 'SVC-SYS-1003');
  }
  // a pattern that matches no type of the catalogue is 400 before any role is asked: no entity to read
  for (const eventTypes of [['walk.*'], ['product.*', 'acrual.approved']]) {
    const unknown = await api('POST', '/api/webhook-subscription', { token: user.token, body: { crProcessId, url: receiver.url, eventTypes } });
    assertInvalid(t, unknown, `eventTypes[${eventTypes.length - 1}]`);
  }
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['*'] }, user.token);
  t.is(subscription.owner, user.userCode);
  receiver.secret = subscription.secret;

  // the admin changes a user's email and a partner's tax number in the tenant
  const email = `${unique('mail-')}@example.org`;
  const taxNumber = unique('TX-');
  const { user: colleague } = await createUser([account.accountNo], { crProcessId }, { crProcessId });
  t.is((await api('PUT', `/api/user-info/${colleague.id}`, { token, body: { version: colleague.version, email } })).status, 200);
  const partner = await createPartner(crProcessId);
  t.is((await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: partner.version, taxNumber } })).status, 200);
  // markers after them, of entities the user reads: in core's outbox its own subscription's change, in bpm's a product
  const touched = await api('PUT', `/api/webhook-subscription/${subscription.id}`, {
    token: user.token,
    body: { version: subscription.version, description: 'marker' },
  });
  t.is(touched.status, 200, touched.text);
  const product = await createProduct(crProcessId);
  await receiver.until(
    (received) =>
      received.some((r) => r.json?.type === 'webhook-subscription.updated') && received.some((r) => r.json?.data?.id === product.id && ofEntity('product')(r)),
  );

  const log = await deliveriesOf(crProcessId, subscription.id);
  t.deepEqual(
    log.filter((row) => row.entity === 'user-info' || row.entity === 'business-partner'),
    [],
  );
  t.false(receiver.received.some(ofEntity('user-info')));
  t.false(receiver.received.some(ofEntity('business-partner')));
  t.false(receiver.received.some((r) => r.body.includes(email) || r.body.includes(taxNumber)));
  t.true(receiver.received.every((r) => r.verified));
});

test('a subscriber that loses business-partner:read gets no partner event from the very next change on', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const crProcessId = account.crProcessId as number;
  const user = await userWithRoles(account, [...WEBHOOK_ROLES, 'product:read']);
  const partnerReaders = await createGroupWithRoles(crProcessId, ['business-partner:read'], [user.userCode]);
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['business-partner.*', 'product.*'] }, user.token);
  const { token } = await adminSession();

  const partner = await createPartner(crProcessId);
  await receiver.until((received) => received.some((r) => r.json?.type === 'business-partner.created' && r.json.data.id === partner.id));

  const demoted = await api('PUT', `/api/group/${partnerReaders.id}`, { token, body: { version: partnerReaders.version, status: false } });
  t.is(demoted.status, 200, demoted.text);
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).status, 403);
  t.is((await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: partner.version, taxNumber: unique('TX-') } })).status, 200);
  const product = await createProduct(crProcessId);
  await receiver.until((received) => received.some((r) => r.json?.type === 'product.created' && r.json.data.id === product.id));

  const log = await deliveriesOf(crProcessId, subscription.id);
  t.deepEqual(
    log.filter((row) => row.entity === 'business-partner').map((row) => row.eventType),
    ['business-partner.created'],
  );
  t.is(receiver.received.filter(ofEntity('business-partner')).length, 1);
});

test('a retry after the owner lost the role is not sent: the delivery is FAILED saying why', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const crProcessId = account.crProcessId as number;
  const user = await userWithRoles(account, WEBHOOK_ROLES);
  const partnerReaders = await createGroupWithRoles(crProcessId, ['business-partner:read'], [user.userCode]);
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['business-partner.*'] }, user.token);
  const { token } = await adminSession();
  // the first attempt is held until the demotion has committed, then fails: its retry comes after it
  let release: (() => void) | undefined;
  receiver.answer = (_req, res) => {
    res.statusCode = 503;
    if (release) res.end('down');
    else release = () => res.end('down');
  };
  const partner = await createPartner(crProcessId);
  await receiver.until(() => release !== undefined);
  const demoted = await api('PUT', `/api/group/${partnerReaders.id}`, { token, body: { version: partnerReaders.version, status: false } });
  t.is(demoted.status, 200, demoted.text);
  release?.();

  const [delivery] = await eventually(
    () => deliveriesOf(crProcessId, subscription.id),
    (log) => log.some((row) => row.deliveryStatus !== 'PENDING'),
    'the delivery settled',
  );
  t.is(delivery.entityKey, String(partner.id));
  t.is(delivery.deliveryStatus, 'FAILED');
  t.is(delivery.attempts, 1);
  t.is(delivery.lastStatusCode, 503);
  t.regex(delivery.lastError, new RegExp(`owner ${user.userCode} may not read business-partner \\(business-partner:read\\)`));
  t.is(receiver.received.length, 1);
  // the endpoint's health is not blamed for it: the subscription stays active
  t.true((await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body.status);
});

test("a deactivated subscriber's next change reaches nothing, and its subscription is disabled saying why", async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const crProcessId = account.crProcessId as number;
  const user = await userWithRoles(account, [...WEBHOOK_ROLES, 'business-partner:read']);
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['business-partner.*'] }, user.token);
  const { token } = await adminSession();
  const partner = await createPartner(crProcessId);
  await receiver.until((received) => received.some((r) => r.json?.type === 'business-partner.created' && r.json.data.id === partner.id));

  const info = (await api('POST', '/api/user-info/list', { token, body: { filter: { crProcessId, userCode: user.userCode } } })).body.content[0];
  const deactivated = await api('PUT', `/api/user-info/${info.id}`, { token, body: { version: info.version, status: false } });
  t.is(deactivated.status, 200, deactivated.text);
  t.is((await api('GET', `/api/business-partner/${partner.id}`, { token: user.token })).status, 401);
  t.is((await api('PUT', `/api/business-partner/${partner.id}`, { token, body: { version: partner.version, taxNumber: unique('TX-') } })).status, 200);

  const disabled = await eventually(
    async () => (await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body,
    (read) => read.status === false,
    'the subscription disabled',
  );
  t.truthy(disabled.disabledAt);
  t.is(disabled.disabledReason, `owner ${user.userCode} is no longer an active user`);
  t.is(disabled.updatedBy, 'svc:core');
  t.is(disabled.owner, user.userCode);
  const log = await deliveriesOf(crProcessId, subscription.id);
  t.deepEqual(
    log.map((row) => row.eventType),
    ['business-partner.created'],
  );
  t.is(receiver.received.length, 1);
});

test('whoever updates a subscription becomes its owner, and it then carries only what that user reads', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const crProcessId = account.crProcessId as number;
  // the user first: the records that make it are no events of the subscription made after
  const user = await userWithRoles(account, [...WEBHOOK_ROLES, 'product:read']);
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['*'] });
  t.is(subscription.owner, subscription.createdBy);
  // naming an entity it cannot read is refused, on update as on create
  const refused = await api('PUT', `/api/webhook-subscription/${subscription.id}`, {
    token: user.token,
    body: { version: subscription.version, eventTypes: ['*', 'business-partner.*'] },
  });
  assertErrorBody(t, refused, 403, 'SVC-SYS-1003');
  const taken = await api('PUT', `/api/webhook-subscription/${subscription.id}`, {
    token: user.token,
    body: { version: subscription.version, description: 'mine now' },
  });
  t.is(taken.status, 200, taken.text);
  t.is(taken.body.owner, user.userCode);

  await createPartner(crProcessId);
  const product = await createProduct(crProcessId);
  await receiver.until((received) => received.some((r) => r.json?.type === 'product.created' && r.json.data.id === product.id));
  const log = await deliveriesOf(crProcessId, subscription.id);
  t.deepEqual(
    log.filter((row) => row.entity === 'business-partner'),
    [],
  );
  t.false(receiver.received.some(ofEntity('business-partner')));
});

test('a retry after the owner was deactivated is not sent: the subscription is disabled and the delivery waits', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const crProcessId = account.crProcessId as number;
  const user = await userWithRoles(account, [...WEBHOOK_ROLES, 'business-partner:read']);
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['business-partner.*'] }, user.token);
  const { token } = await adminSession();
  // the first attempt is held until the deactivation has committed, then fails: its retry comes after it
  let release: (() => void) | undefined;
  receiver.answer = (_req, res) => {
    res.statusCode = 503;
    if (release) res.end('down');
    else release = () => res.end('down');
  };
  await createPartner(crProcessId);
  await receiver.until(() => release !== undefined);
  const info = (await api('POST', '/api/user-info/list', { token, body: { filter: { crProcessId, userCode: user.userCode } } })).body.content[0];
  const deactivated = await api('PUT', `/api/user-info/${info.id}`, { token, body: { version: info.version, status: false } });
  t.is(deactivated.status, 200, deactivated.text);
  release?.();

  const disabled = await eventually(
    async () => (await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body,
    (read) => read.status === false,
    'the subscription disabled',
  );
  t.is(disabled.disabledReason, `owner ${user.userCode} is no longer an active user`);
  const [delivery] = await deliveriesOf(crProcessId, subscription.id);
  t.is(delivery.deliveryStatus, 'PENDING');
  t.is(delivery.attempts, 1);
  t.is(receiver.received.length, 1);
});
