/**
 * Scenario redis-failover: a Redis Sentinel failover under load, and the window in which the
 * gateway's rate limits were not shared (docs/adr/0142-redis-behind-sentinel.md).
 *
 * Each round starts a Sentinel group of its own (test/helpers/redis-sentinel.ts: a master, a
 * replica and three sentinels on 127.0.0.1, quorum 2, `down-after-milliseconds` 1000; Debian's
 * redis-sentinel is installed when missing, as root) and one gateway that finds the master through
 * the sentinels (REDIS_SENTINELS; the services are stand-ins, as the gateway answers these
 * requests without them). BENCH_CONNECTIONS loops (default 50, at most 64 here) send
 * `GET /api/auth/me` without a token, each from an address of its own (TRUST_PROXY=1), so the
 * limiter is asked on every request and refuses none: every answer must be 401. After a second of
 * load the master is killed (SIGKILL); the load goes on until the gateway reports Redis UP again,
 * and one more second. Meanwhile `/actuator/health` is asked every 25 ms.
 *
 * Printed per round, in seconds from the kill: when the sentinels all named the replica master
 * (promoted), when the gateway reported Redis DOWN and UP again (the degraded window: its limits in
 * its own memory, not shared), and the refused-request window: from the first to the last request
 * answered other than 401, or not within 2 s (0 when none was). The scenario fails when any request
 * was refused: the window the interface allows is 0; the figure of interest is the degraded window.
 *
 *   npm run bench -- redis-failover
 *   BENCH_ROUNDS=1 node bench/redis-failover.ts
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatform } from '../scripts/lib/processes.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import { ensureRedisSentinel, startSentinelGroup } from '../test/helpers/redis-sentinel.ts';
import { untilRedisUp } from '../test/helpers/redis.ts';
import { READY_STUB } from '../test/helpers/stand-in.ts';
import { BenchError, fmt, median, onCleanup, printTable, runScenario, settingsFromEnv } from './lib.ts';

/** Longest a request may take before it counts as refused. */
const REQUEST_LIMIT_MS = 2000;
/** How often the gateway's health is asked. */
const HEALTH_EVERY_MS = 25;

interface Round {
  requests: number;
  /** Seconds from the kill to when every sentinel named the replica master. */
  promotedS: number;
  /** Seconds from the kill to the first health answer with Redis DOWN, and to the first UP after it. */
  downS: number;
  upS: number;
  /** Requests answered other than 401 or not in time, and the seconds from the first to the last of them. */
  refused: number;
  refusedWindowS: number;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

await runScenario('redis-failover: the master of a Sentinel group killed under load', async () => {
  const { rounds, connections } = settingsFromEnv();
  const loops = Math.min(connections, 64);
  await ensureRedisSentinel();
  const results: Round[] = [];
  for (let round = 1; round <= rounds; round++) {
    const measured = await failoverRound(loops);
    results.push(measured);
    console.log(
      `# round ${round}: ${measured.requests} requests; promoted ${fmt(measured.promotedS, 2)} s, Redis DOWN at ${fmt(measured.downS, 2)} s ` +
        `and UP at ${fmt(measured.upS, 2)} s after the kill; ${measured.refused} refused (window ${fmt(measured.refusedWindowS, 2)} s)`,
    );
  }
  const med = (of: (round: Round) => number) => fmt(median(results.map(of)), 2);
  console.log(`\nMedian of ${rounds} rounds (seconds):`);
  printTable(
    ['promoted after kill', 'degraded window (DOWN → UP)', 'back on Redis after kill', 'refused-request window', 'refused requests'],
    [[med((r) => r.promotedS), med((r) => r.upS - r.downS), med((r) => r.upS), med((r) => r.refusedWindowS), med((r) => r.refused)]],
  );
  const refused = results.reduce((sum, round) => sum + round.refused, 0);
  if (refused > 0) throw new BenchError(`${refused} requests were refused during a failover: every one must be answered`);
});

/** One failover: its own Sentinel group and gateway, stopped at the end. */
async function failoverRound(loops: number): Promise<Round> {
  const workDir = await mkdtemp(join(tmpdir(), 'bench-redis-failover-'));
  const cleanups: (() => Promise<void>)[] = [() => rm(workDir, { recursive: true, force: true })];
  const cleanUp = async () => {
    for (let work = cleanups.pop(); work; work = cleanups.pop()) await work();
  };
  onCleanup(cleanUp);
  try {
    const group = await startSentinelGroup();
    cleanups.push(() => group.stop());
    // the gateway holds no database credential: the address is never dialled
    const { env } = throwawayEnv('postgres://unused@127.0.0.1:1/unused', workDir, {
      REDIS_SENTINELS: group.sentinels,
      REDIS_SENTINEL_NAME: group.name,
      REDIS_KEY_PREFIX: 'bench-failover',
      TRUST_PROXY: '1',
    });
    const gateway = await startPlatform({
      env,
      entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
      ports: 'free',
      log: { file: join(workDir, 'platform.log') },
    });
    cleanups.push(() => gateway.stop());
    await untilRedisUp(gateway);

    let running = true;
    let sent = 0;
    const answers: { at: number; ok: boolean }[] = [];
    const loop = async () => {
      while (running) {
        const n = sent++;
        const at = performance.now();
        const ok = await fetch(`${gateway.url}/api/auth/me`, {
          headers: { 'x-forwarded-for': `198.18.${(n >> 8) & 255}.${n & 255}` },
          signal: AbortSignal.timeout(REQUEST_LIMIT_MS),
        }).then(
          async (res) => {
            await res.arrayBuffer();
            return res.status === 401;
          },
          () => false,
        );
        answers.push({ at, ok });
      }
    };
    const health: { at: number; up: boolean }[] = [];
    const watch = async () => {
      while (running) {
        const at = performance.now();
        const up = await fetch(`${gateway.url}/actuator/health`, { headers: { 'x-forwarded-for': '192.0.2.1' }, signal: AbortSignal.timeout(REQUEST_LIMIT_MS) })
          .then((res) => res.json() as Promise<{ components?: { redis?: { status?: string } } }>)
          .then(
            (body) => body.components?.redis?.status === 'UP',
            () => false,
          );
        health.push({ at, up });
        await sleep(HEALTH_EVERY_MS);
      }
    };
    const load = Promise.all([...Array.from({ length: loops }, loop), watch()]);
    await sleep(1000);
    const killedAt = performance.now();
    await group.master.kill();
    await group.untilMasterIs(group.replica.port, 60_000);
    const promotedAt = performance.now();
    await untilRedisUp(gateway);
    await sleep(1000);
    running = false;
    await load;

    const afterKill = health.filter((answer) => answer.at >= killedAt);
    const down = afterKill.find((answer) => !answer.up);
    const up = down ? afterKill.find((answer) => answer.at > down.at && answer.up) : undefined;
    if (!down || !up) throw new BenchError('the gateway never reported Redis DOWN and then UP after the kill: no failover was seen');
    const refused = answers.filter((answer) => !answer.ok);
    const seconds = (at: number) => (at - killedAt) / 1000;
    return {
      requests: answers.length,
      promotedS: seconds(promotedAt),
      downS: seconds(down.at),
      upS: seconds(up.at),
      refused: refused.length,
      refusedWindowS: refused.length > 0 ? (refused.at(-1)!.at - refused[0]!.at) / 1000 : 0,
    };
  } finally {
    await cleanUp();
  }
}
