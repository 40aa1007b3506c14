/**
 * The dispatcher shares its attempts fairly and reads answers no further than it keeps
 * (docs/adr/0082-webhook-figures-and-fairness-between.md): a tenant whose endpoints never answer holds at most its share of
 * the slots, so another tenant's delivery goes out at once; an answer longer than its 1 KiB excerpt
 * ends the attempt there and closes the connection, however much more the receiver would send.
 *
 * The suite runs with WEBHOOK_TIMEOUT_MS=2000 (test/run.ts): an attempt on a silent endpoint holds
 * its slot 2 s, and an endless answer would be read for those 2 s.
 */
import test from 'ava';
import { adminSession, create, createPartner, freshTenant } from './helpers/factories.ts';
import { api } from './helpers/platform.ts';
import { startReceiver } from './helpers/webhook-receiver.ts';
import { soleDispatcher } from './helpers/dispatchers.ts';

/** The suite's WEBHOOK_TIMEOUT_MS: what one attempt on a silent endpoint holds its slot for. */
const TIMEOUT_MS = 2_000;

async function deliveryOf(crProcessId: number, done: (row: any) => boolean): Promise<any> {
  const { token } = await adminSession();
  for (let tries = 0; tries < 100; tries++) {
    const log = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId } } });
    const row = log.body.content?.[0];
    if (row !== undefined && done(row)) return row;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

test("a tenant whose 16 endpoints never answer does not delay another tenant's delivery", async (t) => {
  // the share is per dispatcher: the suite's alone while B's attempts are counted (it may wait for
  // webhooks-dispatcher-kill's own core-svc to stop)
  t.timeout(240_000);
  await soleDispatcher(t);
  const silent = await startReceiver();
  // never answers: each attempt holds its connection until the dispatcher's timeout
  silent.answer = () => undefined;
  const prompt = await startReceiver();
  t.teardown(() => Promise.all([silent.close(), prompt.close()]));
  const tenantB = freshTenant();
  const tenantA = freshTenant();
  for (let i = 0; i < 16; i++) await create('webhook-subscription', { crProcessId: tenantB, url: `${silent.url}/${i}`, eventTypes: ['business-partner.*'] });
  const subscriptionA = await create('webhook-subscription', { crProcessId: tenantA, url: prompt.url, eventTypes: ['business-partner.*'] });
  prompt.secret = subscriptionA.secret;
  // two creates: 32 deliveries of tenant B, older than A's
  await createPartner(tenantB);
  await createPartner(tenantB);
  // B's attempts are in flight, holding their connections
  await silent.until((received) => received.length >= 4, 10_000);
  const started = Date.now();
  const partnerA = await createPartner(tenantA);
  await prompt.until((received) => received.some((r) => r.json?.data?.id === partnerA.id), 10_000);
  const arrived = prompt.received.find((r) => r.json?.data?.id === partnerA.id);
  const latency = (arrived?.at ?? Infinity) - started;
  t.log(`tenant A's delivery: ${latency} ms`);
  // without a share per tenant, A's delivery waits behind B's for at least one timeout (2 s)
  t.true(latency < TIMEOUT_MS / 2, `tenant A's delivery took ${latency} ms; tenant B's endpoint had ${silent.received.length} attempts`);
  t.true(arrived?.verified, 'the delivery is signed with A’s secret');
  // and B's attempts never took the slots kept for others' shares, as far as its receiver saw them:
  // no more than 12 of the 16 arrived before the first of them timed out
  const firstB = silent.received[0]?.at ?? 0;
  t.true(silent.received.filter((r) => r.at < firstB + TIMEOUT_MS - 200).length <= 12, silent.received.map((r) => r.at - firstB).join(','));
});

test('an answer longer than its 1 KiB excerpt is read no further: the attempt ends with the excerpt and closes the connection', async (t) => {
  const endless = await startReceiver();
  t.teardown(() => endless.close());
  // 16 KiB every 10 ms for as long as the connection stays open
  const chunk = Buffer.from('0123456789abcdef'.repeat(1024));
  let sent = 0;
  let firstAt = 0;
  let closedAt = 0;
  endless.answer = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    firstAt = Date.now();
    const write = () => {
      if (res.destroyed) return;
      res.write(chunk);
      sent += chunk.length;
    };
    write();
    const timer = setInterval(write, 10);
    res.on('close', () => {
      clearInterval(timer);
      closedAt = Date.now();
    });
  };
  const crProcessId = freshTenant();
  const subscription = await create('webhook-subscription', { crProcessId, url: endless.url, eventTypes: ['business-partner.created'] });
  endless.secret = subscription.secret;
  await createPartner(crProcessId);
  await endless.until((received) => received.length >= 1);
  const row = await deliveryOf(crProcessId, (r) => r.attempts >= 1);
  t.is(row?.deliveryStatus, 'DELIVERED', JSON.stringify(row));
  t.is(row?.attempts, 1);
  t.is(row?.lastStatusCode, 200);
  t.is(row?.responseExcerpt, chunk.subarray(0, 1024).toString('utf8'));
  t.true(row?.lastLatencyMs < TIMEOUT_MS / 2, `the attempt took ${row?.lastLatencyMs} ms`);
  // the receiver sees its connection closed soon after its first chunk, not at the timeout
  const deadline = Date.now() + 5_000;
  while (closedAt === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  t.true(closedAt > 0, 'core-svc closed the connection');
  t.log(`closed ${closedAt - firstAt} ms after the answer began, ${sent} bytes sent; the attempt took ${row?.lastLatencyMs} ms`);
  t.true(closedAt - firstAt < TIMEOUT_MS / 2, `closed ${closedAt - firstAt} ms after the answer began, ${sent} bytes sent`);
  t.true(sent <= 256 * 1024, `${sent} bytes sent before the connection closed`);
  t.is(endless.received.length, 1, 'one attempt');
});
