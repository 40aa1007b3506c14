/**
 * A dispatcher killed with deliveries in flight loses nothing (docs/adr/0080-webhook-delivery-fan-out-queue.md): a
 * second core-svc of the test's own, beside the suite's, claims deliveries while the endpoint holds
 * every answer; it is killed outright (SIGKILL), its leases expire, and every event still arrives,
 * each cut attempt again under its original webhook-id.
 */
import test from 'ava';
import type { ServerResponse } from 'node:http';
import { startPlatform } from '../scripts/lib/processes.ts';
import { without } from './helpers/env-without.ts';
import { adminSession, create, createPartner, freshTenant } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { startReceiver, type Received } from './helpers/webhook-receiver.ts';
import { extraDispatcher } from './helpers/dispatchers.ts';

const EVENTS = 40;

test('core-svc killed mid-delivery: every event still arrives, with its original webhook-id', async (t) => {
  t.timeout(240_000);
  // a second dispatcher: no test counting the suite's alone runs meanwhile (helpers/dispatchers.ts)
  await extraDispatcher(t);
  const own = await startPlatform({
    env: without(platform.env, 'CORE_GRPC_ADDR'),
    ports: 'free',
    entries: { 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB, gateway: READY_STUB },
    log: suiteLog(),
  });
  t.teardown(() => own.stop());
  const receiver = await startReceiver();
  t.teardown(() => receiver.close());
  const held: { res: ServerResponse; received: Received }[] = [];
  const cut = new Set<string>();
  let holding = true;
  receiver.answer = (_req, res, received) => {
    // an attempt whose connection closes before its answer is one the killed process made
    res.on('close', () => {
      if (!res.writableFinished) cut.add(received.id);
    });
    if (holding) held.push({ res, received });
    else res.end('ok');
  };
  const crProcessId = freshTenant();
  const subscription = await create('webhook-subscription', { crProcessId, url: receiver.url, eventTypes: ['business-partner.created'] });
  receiver.secret = subscription.secret;
  const partners = await Promise.all(Array.from({ length: EVENTS }, () => createPartner(crProcessId)));
  // both dispatchers claim what they can (a lone tenant fills 12 slots of each:
  // docs/adr/0082-webhook-figures-and-fairness-between.md) and wait on the held answers: more than one of them holds
  await receiver.until((received) => received.length >= 16, 20_000);
  await new Promise((resolve) => setTimeout(resolve, 300));
  process.kill(own.pids['core-svc'], 'SIGKILL');
  await new Promise((resolve) => setTimeout(resolve, 300));
  holding = false;
  for (const { res } of held) if (!res.destroyed) res.end('ok');
  // the leases (3 s in the suite) expire and the cut deliveries go out again
  t.true(cut.size > 0, 'the killed process had attempts in flight');
  const sentAgain = (received: Received[]) => [...cut].every((id) => received.filter((r) => r.id === id).length >= 2);
  await receiver.until((received) => new Set(received.filter((r) => r.verified).map((r) => r.id)).size >= EVENTS && sentAgain(received), 60_000);
  const ids = receiver.received.map((r) => r.id);
  for (const id of cut) t.true(ids.filter((seen) => seen === id).length >= 2, `${id} was sent again after the kill`);
  const created = new Set(receiver.received.map((r) => r.json.data.id as number));
  t.deepEqual(
    [...created].sort((x, y) => x - y),
    partners.map((partner) => partner.id as number).sort((x, y) => x - y),
  );
  const { token } = await adminSession();
  const log = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId }, size: 100 } });
  t.is(log.body.content.length, EVENTS);
  // every id the receiver saw is one delivery's eventId: retries kept it
  const eventIds = new Set(log.body.content.map((row: { eventId: string }) => row.eventId));
  t.true(ids.every((id) => eventIds.has(id)));
  for (let tries = 0; tries < 50 && !(await allDelivered()); tries++) await new Promise((resolve) => setTimeout(resolve, 200));
  t.true(await allDelivered());

  async function allDelivered(): Promise<boolean> {
    const page = await api('POST', '/api/webhook-delivery/list', { token, body: { filter: { crProcessId, deliveryStatus: 'DELIVERED' }, size: 100 } });
    return page.body.content.length === EVENTS;
  }
});
