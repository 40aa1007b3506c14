/**
 * A subscription's secret is seen once (docs/interface.md#webhooks: "made on create and answered in
 * that answer only"), even by whoever repeats the create's Idempotency-Key: a replay answers the
 * record without it (docs/adr/0078-idempotent-requests.md), before and after a rotation and
 * after the subscription's deletion.
 */
import { randomUUID } from 'node:crypto';
import test from 'ava';
import { adminSession, createAccount } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

const SECRET = /^whsec_[A-Za-z0-9+/]{32}$/;

test('a replayed subscription create answers the record without a secret, after a rotation and after the deletion too', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const { token } = await adminSession();
  const key = randomUUID();
  const body = { crProcessId: account.crProcessId, url: receiver.url, eventTypes: ['product.*'] };
  const post = () => api('POST', '/api/webhook-subscription', { token, body, headers: { 'idempotency-key': key } });

  const first = await post();
  t.is(first.status, 200, first.text);
  t.regex(first.body.secret, SECRET);
  t.is(first.headers.get('idempotent-replayed'), null);

  const replayed = await post();
  t.is(replayed.status, 200, replayed.text);
  t.is(replayed.headers.get('idempotent-replayed'), 'true');
  t.is(replayed.body.id, first.body.id);
  t.is(replayed.body.url, receiver.url);
  t.is(replayed.body.secret, null);

  const rotated = await api('POST', `/api/webhook-subscription/${first.body.id}/rotate-secret`, { token });
  t.is(rotated.status, 200, rotated.text);
  t.regex(rotated.body.secret, SECRET);
  const afterRotation = await post();
  t.is(afterRotation.headers.get('idempotent-replayed'), 'true');
  t.is(afterRotation.body.secret, null);
  t.false(afterRotation.text.includes(first.body.secret), 'the first secret is in no replay');
  t.false(afterRotation.text.includes(rotated.body.secret), 'nor the current one');

  const deleted = await api('DELETE', `/api/webhook-subscription/${first.body.id}`, { token });
  t.is(deleted.status, 204, deleted.text);
  const afterDeletion = await post();
  t.is(afterDeletion.headers.get('idempotent-replayed'), 'true');
  t.is(afterDeletion.body.secret, null);
  t.false(afterDeletion.text.includes('whsec_'), afterDeletion.text);
});
