/**
 * A preload for the platform's processes that samples where they allocate: SIGUSR2 starts V8's
 * sampling heap profiler, the next SIGUSR2 writes `<HEAP_SAMPLE_DIR or the temp dir>/<pid>-<name>.heapprofile`
 * (open it in Chrome DevTools, Memory). HEAP_SAMPLE_KEEP says which samples stay in the profile:
 * `all` (default: everything allocated, collected or not), `promoted` (what survived scavenges,
 * even if a mark-compact freed it later: the source of old-generation garbage) or `live` (what is
 * still alive when the profile is written).
 *
 *   BENCH_NODE_FLAGS=--import=./bench/heap-sample.ts BENCH_KEEP_LOG=1 node bench/steady-load.ts
 *   kill -USR2 <gateway pid>; sleep 8; kill -USR2 <gateway pid>
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

const keep = process.env.HEAP_SAMPLE_KEEP ?? 'all';
const session = new Session();
session.connect();
let sampling = false;

process.on('SIGUSR2', () => {
  void toggle().catch((error: unknown) => console.error('heap-sample:', error));
});

async function toggle(): Promise<void> {
  if (!sampling) {
    sampling = true;
    await session.post('HeapProfiler.enable');
    await session.post('HeapProfiler.startSampling', {
      samplingInterval: 4096,
      includeObjectsCollectedByMajorGC: keep !== 'live',
      includeObjectsCollectedByMinorGC: keep === 'all',
    });
    return;
  }
  sampling = false;
  const { profile } = await session.post('HeapProfiler.stopSampling');
  const name = basename(dirname(dirname(process.argv[1] ?? 'node')));
  writeFileSync(join(process.env.HEAP_SAMPLE_DIR ?? tmpdir(), `${process.pid}-${name}.heapprofile`), JSON.stringify(profile));
}
