/**
 * Scenario webhook-delivery: how long an event takes from its commit to the receiver's 200, at a
 * steady write rate. A subscription for `branch.*` of tenant 1 points at a node:http receiver in
 * this process (loopback, answering 200 at once, noting when each event first arrived); creates of
 * branches are sent open loop (bench/open-loop.ts) at BENCH_WEBHOOK_RATE (default 200) per second
 * for BENCH_WEBHOOK_SECONDS (default 20) after a warm-up of BENCH_WEBHOOK_WARMUP (default 5) whose
 * deliveries are waited for and discarded.
 *
 * Per event, two latencies, both in this machine's wall clock:
 * - **from occurredAt** (judged): arrival − the event's `timestamp`, which the service takes just
 *   before it inserts the event, inside the transaction: a little before the commit, so an upper
 *   bound of commit → receiver (by the transaction's remaining work, about a millisecond);
 * - **from the answer**: arrival − the moment the create's HTTP answer ended here, which comes after
 *   the commit: a lower bound (by the gateway's way back).
 *
 * Events that never arrive (BENCH_WEBHOOK_DRAIN seconds, default 30, after the last answer) count
 * as infinitely late in the percentiles, and are a missed target of their own. Targets: p50 ≤ 100 ms,
 * p99 ≤ 1 s, every event delivered. A platform without webhook subscriptions (404) fails at once,
 * saying so.
 *
 *   npm run bench -- webhook-delivery
 *   BENCH_WEBHOOK_SECONDS=5 BENCH_WEBHOOK_WARMUP=1 node bench/webhook-delivery.ts   (a quick check)
 */
import { BenchError, fmt, judge, login, percentile, printTable, runScenario, startBenchPlatform } from './lib.ts';
import { openLoop } from './open-loop.ts';
import { BRANCH_TENANT, branchCreate, startReceiver, subscribe, type Receiver } from './lib/webhooks.ts';

const TARGETS = { p50: 100, p99: 1_000 } as const;

await runScenario('webhook-delivery: commit to the receiver at a steady write rate, open loop', async () => {
  const rate = number('BENCH_WEBHOOK_RATE', 200, 1);
  const seconds = number('BENCH_WEBHOOK_SECONDS', 20, 1);
  const warmup = number('BENCH_WEBHOOK_WARMUP', 5, 0);
  const drainMs = number('BENCH_WEBHOOK_DRAIN', 30, 1) * 1000;
  console.log(`# ${rate} creates/s for ${seconds} s, open loop, after ${warmup} s of warm-up; undelivered after ${drainMs / 1000} s: missing`);

  const receiver = await startReceiver();
  // development: the receiver is on loopback
  const platform = await startBenchPlatform(process.env, { extraEnv: { APP_ENV: 'development' } });
  const token = await login(platform);
  const create = await branchCreate(platform, token);
  await subscribe(platform, token, BRANCH_TENANT, receiver.url, ['branch.*']);
  console.log(`# subscription: branch.* of tenant ${BRANCH_TENANT} -> ${receiver.url}`);

  /** Sends the creates; the moment (wall-clock ms) each one's answer ended, by its branch id. */
  const send = async (duration: number): Promise<Map<string, number>> => {
    const answered = new Map<string, number>();
    await openLoop(create, {
      rate,
      seconds: duration,
      onAnswer: (_index, body, answeredAt) => {
        const id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id;
        answered.set(String(id), performance.timeOrigin + answeredAt);
      },
    });
    return answered;
  };

  if (warmup > 0) {
    const warm = await send(warmup);
    const arrived = await untilArrived(receiver, warm, drainMs);
    console.log(`# warm-up: ${warm.size} creates, ${arrived} delivered (discarded)`);
  }
  receiver.reset();
  const answered = await send(seconds);
  await untilArrived(receiver, answered, drainMs);

  const fromOccurred: number[] = [];
  const fromAnswer: number[] = [];
  let missing = 0;
  for (const [id, answeredAt] of answered) {
    const arrival = receiver.arrivals.get(`branch.created ${id}`);
    if (!arrival) {
      missing++;
      fromOccurred.push(Infinity);
      fromAnswer.push(Infinity);
      continue;
    }
    fromOccurred.push(arrival.at - arrival.occurredAt);
    fromAnswer.push(arrival.at - answeredAt);
  }
  fromOccurred.sort((a, b) => a - b);
  fromAnswer.sort((a, b) => a - b);
  const row = (label: string, sorted: number[]): string[] => [
    label,
    ...[0.5, 0.9, 0.99, 0.999].map((p) => fmt(percentile(sorted, p), 1)),
    fmt(sorted.at(-1) ?? NaN, 1),
  ];
  console.log(
    `\n${answered.size} events, ${answered.size - missing} delivered, ${missing} missing; ${receiver.received()} deliveries received in all (redeliveries included)`,
  );
  console.log('latency per event (ms; a missing event is infinitely late, shown as -):');
  printTable(['from', 'p50', 'p90', 'p99', 'p99.9', 'max'], [row('occurredAt (judged)', fromOccurred), row('the write answer', fromAnswer)]);
  const p50 = percentile(fromOccurred, 0.5);
  const p99 = percentile(fromOccurred, 0.99);
  console.log(
    `targets (from occurredAt, at ${rate} writes/s): p50 ${fmt(p50, 1)} ms <= ${TARGETS.p50} ms: ${judge('delivery p50', p50 <= TARGETS.p50)}; ` +
      `p99 ${fmt(p99, 1)} ms <= ${TARGETS.p99} ms: ${judge('delivery p99', p99 <= TARGETS.p99)}; ` +
      `every event delivered (${missing} missing): ${judge('every event delivered', missing === 0)}`,
  );
});

/** Waits until every create of `answered` has arrived at `receiver`, at most `drainMs`; how many did. */
async function untilArrived(receiver: Receiver, answered: Map<string, number>, drainMs: number): Promise<number> {
  const deadline = Date.now() + drainMs;
  const count = (): number => [...answered.keys()].filter((id) => receiver.arrivals.has(`branch.created ${id}`)).length;
  for (let arrived = count(); ; arrived = count()) {
    if (arrived === answered.size || Date.now() > deadline) return arrived;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function number(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new BenchError(`${name}=${raw}: expected a number >= ${min}`);
  return value;
}
