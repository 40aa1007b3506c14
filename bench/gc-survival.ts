/**
 * Scenario gc-survival (a diagnosis, no target): what the young generation's garbage collector
 * does per request in each process that serves GET /api/branch/{id} at a steady rate (open loop,
 * bench/open-loop.ts), and in a bare node:http2 client alone. A request whose objects are garbage
 * once it is answered costs a scavenge next to nothing; objects that outlive a scavenge are copied,
 * and those that outlive two are promoted and wait for a mark-compact. The scavenge's pause grows
 * with what it copies, and every request due meanwhile waits: steady-load's p99 and p99.9.
 *
 * Measured per process (bench/gc-watch.ts, a preload): scavenges, their mean and longest pause,
 * the bytes alive after each, and the bytes promoted per request; for the gateway, the one-hop
 * reference's HTTP front (node:http and a grpc-js client, nothing else), the bare baseline, and a
 * node:http2 client sending the same number of requests to a node:http2 server (no grpc-js).
 *
 *   npm run bench -- gc-survival
 *   BENCH_GC_RATE=1000 BENCH_GC_SECONDS=10 node bench/gc-survival.ts
 */
import { fork } from 'node:child_process';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBranchTargets } from './branch-targets.ts';
import { figuresOf, GcWatch, type GcFigures } from './gc-watch.ts';
import { BenchError, fmt, printTable, runScenario, type Target } from './lib.ts';
import { openLoop } from './open-loop.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));
const RATE = Number(process.env.BENCH_GC_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_GC_SECONDS ?? 10);
const WARMUP_SECONDS = 3;

if (process.argv[2] === 'http2-client') {
  // The bare http2 client: RATE requests per second, each a POST with a 200-byte body as a unary
  // gRPC call sends, its answer read to the end.
  const session = http2.connect(`http://127.0.0.1:${process.argv[3]}`);
  const one = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const stream = session.request({ ':method': 'POST', ':path': '/probe', 'content-type': 'application/grpc' });
      stream.on('data', () => undefined);
      stream.on('end', () => resolve());
      stream.on('error', reject);
      stream.end(Buffer.alloc(200));
    });
  const steady = (seconds: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const total = Math.round(RATE * seconds);
      let sent = 0;
      let done = 0;
      const t0 = performance.now();
      const tick = (): void => {
        while (sent < total && t0 + (sent * 1000) / RATE <= performance.now()) {
          sent++;
          one().then(() => {
            if (++done === total) resolve();
          }, reject);
        }
        if (sent < total) setTimeout(tick, 1);
      };
      tick();
    });
  const watch = new GcWatch();
  await steady(WARMUP_SECONDS);
  watch.start();
  await steady(SECONDS);
  process.send?.(watch.stop());
  session.close();
} else {
  await runScenario(`gc-survival: the young generation per request at ${fmt(RATE)} req/s, open loop (a diagnosis, no target)`, main);
}

async function main(): Promise<void> {
  process.env.BENCH_NODE_FLAGS = `${process.env.BENCH_NODE_FLAGS ?? ''} --import=${join(BENCH_DIR, 'gc-watch.ts')}`.trim();
  const { platform, targets, baseline, hop } = await startBranchTargets();
  const rows: [string, GcFigures][] = [];
  // per target, the processes watched while it is under load
  const measured: [Target, [string, number][]][] = [
    [
      targets.gateway,
      [
        ['gateway (express, limiter, grpc-js client)', platform.platform.pids.gateway],
        ['bpm-svc (grpc-js server, pg), same run', platform.platform.pids['bpm-svc']],
      ],
    ],
    [targets['grpc-hop'], [['grpc-hop front (node:http + grpc-js client)', hop.pid]]],
    [targets.baseline, [['baseline (node:http + pg)', baseline.pid]]],
  ];
  for (const [target, watched] of measured) {
    await openLoop(target, { rate: RATE, seconds: WARMUP_SECONDS });
    for (const [, pid] of watched) process.kill(pid, 'SIGTTIN');
    await openLoop(target, { rate: RATE, seconds: SECONDS });
    for (const [, pid] of watched) process.kill(pid, 'SIGTTOU');
    for (const [name, pid] of watched) rows.push([name, await figuresOf(pid)]);
  }
  rows.push(['node:http2 client alone (no grpc-js)', await bareHttp2()]);

  console.log(`\n${fmt(RATE)} req/s for ${SECONDS} s after ${WARMUP_SECONDS} s of warm-up, per process:`);
  printTable(
    ['process', 'scavenges/s', 'mean ms', 'longest ms', 'alive after one, MB', 'promoted per request, KB', 'mark-compacts', 'their ms'],
    rows.map(([name, f]) => [
      name,
      fmt(f.scavenges / f.seconds, 1),
      fmt(f.scavenges ? f.scavengeMs / f.scavenges : 0, 2),
      fmt(f.longestScavengeMs, 1),
      fmt(f.scavenges ? f.survivedBytes / f.scavenges / 1e6 : 0, 2),
      fmt(f.promotedBytes / (RATE * f.seconds) / 1e3, 2),
      fmt(f.markCompacts),
      fmt(f.markCompactMs, 1),
    ]),
  );
}

/** A node:http2 server here answering 300 bytes to every stream, and the client role above in a process of its own. */
async function bareHttp2(): Promise<GcFigures> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      stream.respond({ ':status': 200 });
      stream.end('x'.repeat(300));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const client = fork(fileURLToPath(import.meta.url), ['http2-client', String((server.address() as AddressInfo).port)]);
    return await new Promise<GcFigures>((resolve, reject) => {
      client.once('message', (figures) => resolve(figures as GcFigures));
      client.once('exit', (code) => reject(new BenchError(`the http2 client exited (code ${code}) without figures`)));
    });
  } finally {
    server.close();
  }
}
