/**
 * A touch of a record with a required list (docs/adr/0001-update-is-a-merge.md: "An update
 * with only `version` touches the record (version + 1)"): the list is unchanged, while a list
 * cleared on purpose is still refused as required.
 */
import test from 'ava';
import { adminSession, create, createAccount, createUser } from './helpers/factories.ts';
import { assertInvalid } from './helpers/error-body.ts';
import { api } from './helpers/platform.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';

test('an update with only version touches a webhook-subscription and keeps its eventTypes; an empty eventTypes is 400', async (t) => {
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const account = await createAccount();
  const subscription = await create('webhook-subscription', {
    crProcessId: account.crProcessId,
    url: receiver.url,
    eventTypes: ['branch.*', 'product.created'],
  });
  const { token } = await adminSession();
  const touched = await api('PUT', `/api/webhook-subscription/${subscription.id}`, { token, body: { version: subscription.version } });
  t.is(touched.status, 200, touched.text);
  t.is(touched.body.version, subscription.version + 1);
  t.deepEqual(touched.body.eventTypes, ['branch.*', 'product.created']);
  const read = await api('GET', `/api/webhook-subscription/${subscription.id}`, { token });
  t.deepEqual(read.body.eventTypes, ['branch.*', 'product.created']);

  const cleared = await api('PUT', `/api/webhook-subscription/${subscription.id}`, { token, body: { version: touched.body.version, eventTypes: [] } });
  assertInvalid(t, cleared, 'eventTypes');
  t.deepEqual((await api('GET', `/api/webhook-subscription/${subscription.id}`, { token })).body.eventTypes, ['branch.*', 'product.created']);
});

test('an update with only version touches a user-process and keeps its userProcessSelects; an empty list is 400', async (t) => {
  const account = await createAccount();
  const { process } = await createUser([account.accountNo]);
  const { token } = await adminSession();
  const selectsOf = (record: any) => record.userProcessSelects.map((select: { accountNo: string }) => select.accountNo);
  t.deepEqual(selectsOf(process), [account.accountNo]);
  const touched = await api('PUT', `/api/user-process/${process.id}`, { token, body: { version: process.version } });
  t.is(touched.status, 200, touched.text);
  t.is(touched.body.version, process.version + 1);
  t.deepEqual(selectsOf(touched.body), [account.accountNo]);
  const read = await api('GET', `/api/user-process/${process.id}`, { token });
  t.deepEqual(selectsOf(read.body), [account.accountNo]);

  const cleared = await api('PUT', `/api/user-process/${process.id}`, { token, body: { version: touched.body.version, userProcessSelects: [] } });
  assertInvalid(t, cleared, 'userProcessSelects');
  t.deepEqual(selectsOf((await api('GET', `/api/user-process/${process.id}`, { token })).body), [account.accountNo]);
});
