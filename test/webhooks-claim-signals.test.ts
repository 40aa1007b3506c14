/**
 * When a finished attempt calls for a claim (core-svc/src/webhooks/claim-signals.ts): only while the
 * last claim took all it could, or when a later delivery of the same record, made here, waits for
 * the one that finished (per-record order, docs/adr/0080-webhook-delivery-fan-out-queue.md); and
 * which deliveries a fan-out leases at once (fan-out-leases.ts), by the claim's fairness
 * (docs/adr/0082-webhook-figures-and-fairness-between.md).
 */
import test from 'ava';
import { ClaimSignals, recordKey } from '../core-svc/src/webhooks/claim-signals.ts';
import { pickLeases } from '../core-svc/src/webhooks/fan-out-leases.ts';

const A = recordKey('1', 'branch', '7');
const B = recordKey('1', 'branch', '8');

test('a claim that took all it could calls for another at the next finished attempt; one that took less does not', (t) => {
  const signals = new ClaimSignals();
  signals.claimed(12, 12);
  t.true(signals.ended(A, true), 'full: more may be due');
  signals.claimed(5, 12);
  t.false(signals.ended(A, true), 'short: nothing due was left behind');
});

test('a later delivery of the same record made here is claimed when the earlier one settles, not before', (t) => {
  const signals = new ClaimSignals();
  signals.made(A);
  signals.made(A);
  signals.made(B);
  signals.claimed(2, 12);
  t.false(signals.ended(A, false), 'waiting for its retry: the later one still waits');
  t.true(signals.ended(A, true), 'settled: the later one is due');
  t.false(signals.ended(A, true), 'the later one settled: none waits');
  t.false(signals.ended(B, true));
});

test('distinct records have distinct keys, where their parts run together', (t) => {
  t.not(recordKey('1', 'branch', '17'), recordKey('11', 'branch', '7'));
  t.not(recordKey('1', 'branch', '7'), recordKey('1', 'branc', 'h7'));
});

test('idle after a short claim forgets the records; the claim poll finds what another replica made', (t) => {
  const signals = new ClaimSignals();
  signals.made(A);
  signals.made(A);
  signals.claimed(1, 12);
  signals.idle();
  t.false(signals.ended(A, true));
});

test("a fan-out leases by the claim's rule: within the share first, beyond it up to overShare, at most the limit, one per record", (t) => {
  const line = (tenant: number, count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ tenant, record: `${tenant}:${from + i}` }));
  const slots = { limit: 16, share: 4, overShare: 12, busy: new Map<number, number>() };
  t.is(pickLeases(line(1, 20), slots).size, 12, 'a tenant alone: its share and more, up to overShare');
  t.is(pickLeases(line(1, 20), { ...slots, limit: 3 }).size, 3, 'never more than the free slots');
  const two = [...line(1, 10), ...line(2, 3)];
  const picked = pickLeases(two, { ...slots, busy: new Map([[1, 4]]) });
  t.true(
    [10, 11, 12].every((index) => picked.has(index)),
    'the idle tenant is served whole',
  );
  t.is([...picked].filter((index) => index < 10).length, 9, 'the busy one fills what is left within overShare');
  const sameRecord = [
    { tenant: 1, record: 'a' },
    { tenant: 1, record: 'a' },
    { tenant: 1, record: 'b' },
  ];
  t.deepEqual([...pickLeases(sameRecord, slots)].sort(), [0, 2], 'the later delivery of a record waits for the first');
});
