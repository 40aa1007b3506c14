/**
 * What the young generation's garbage collector does in a process over a window: scavenges (count,
 * mean and longest pause), the bytes still alive after each (copied within the young generation:
 * they live on past one scavenge) and the bytes promoted to the old generation, which only a
 * mark-compact frees. Read from perf_hooks' `gc` entries and V8's heap space sizes.
 *
 * Each pause of at least PAUSE_LISTED_MS is also listed with the wall-clock time it began, so that a
 * stall seen by a client can be set against the pauses of every process (bench/steady-load.ts).
 *
 * As a preload (`--import=./bench/gc-watch.ts`), SIGTTIN opens a window and SIGTTOU closes it and
 * writes `<tmpdir>/gc-watch/<pid>.json` (`figuresOf` reads it); `GcWatch` measures in process.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

export interface GcFigures {
  seconds: number;
  scavenges: number;
  scavengeMs: number;
  longestScavengeMs: number;
  /** Bytes alive in the young generation after the scavenges, summed. */
  survivedBytes: number;
  /** Bytes the old generation grew by at the scavenges, summed. */
  promotedBytes: number;
  markCompacts: number;
  markCompactMs: number;
  /** The pauses of at least PAUSE_LISTED_MS: when each began (ms since the epoch), its kind and length. */
  pauses: GcPause[];
}

export interface GcPause {
  at: number;
  kind: 'scavenge' | 'mark-compact';
  ms: number;
}

/** Pauses this long or longer are listed one by one. */
export const PAUSE_LISTED_MS = 5;

export const GC_WATCH_DIR = join(tmpdir(), 'gc-watch');

const used = (space: string): number => getHeapSpaceStatistics().find((s) => s.space_name === space)?.space_used_size ?? 0;

export class GcWatch {
  #figures: GcFigures | undefined;
  #started = 0;
  #old = 0;
  readonly #observer = new PerformanceObserver((list) => {
    const figures = this.#figures;
    if (!figures) return;
    for (const entry of list.getEntries()) {
      const kind = (entry as unknown as { detail?: { kind?: number } }).detail?.kind;
      const listed = (name: GcPause['kind']) => {
        if (entry.duration >= PAUSE_LISTED_MS) figures.pauses.push({ at: performance.timeOrigin + entry.startTime, kind: name, ms: entry.duration });
      };
      if (kind === constants.NODE_PERFORMANCE_GC_MINOR) {
        figures.scavenges++;
        figures.scavengeMs += entry.duration;
        figures.longestScavengeMs = Math.max(figures.longestScavengeMs, entry.duration);
        listed('scavenge');
        figures.survivedBytes += used('new_space');
        const old = used('old_space');
        figures.promotedBytes += Math.max(0, old - this.#old);
        this.#old = old;
      } else if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) {
        figures.markCompacts++;
        figures.markCompactMs += entry.duration;
        listed('mark-compact');
        this.#old = used('old_space');
      }
    }
  });

  constructor() {
    this.#observer.observe({ entryTypes: ['gc'] });
  }

  start(): void {
    this.#figures = {
      seconds: 0,
      scavenges: 0,
      scavengeMs: 0,
      longestScavengeMs: 0,
      survivedBytes: 0,
      promotedBytes: 0,
      markCompacts: 0,
      markCompactMs: 0,
      pauses: [],
    };
    this.#started = performance.now();
    this.#old = used('old_space');
  }

  stop(): GcFigures | undefined {
    const figures = this.#figures;
    this.#figures = undefined;
    if (figures) figures.seconds = (performance.now() - this.#started) / 1000;
    return figures;
  }
}

/** The figures a preloaded process wrote at SIGTTOU (waits up to 5 s for them; the file is removed). */
export async function figuresOf(pid: number): Promise<GcFigures> {
  const file = join(GC_WATCH_DIR, `${pid}.json`);
  for (let waited = 0; !existsSync(file); waited += 50) {
    if (waited > 5_000) throw new Error(`process ${pid} wrote no figures to ${file}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const figures = JSON.parse(readFileSync(file, 'utf8')) as GcFigures;
  rmSync(file);
  return figures;
}

const watch = new GcWatch();
process.on('SIGTTIN', () => watch.start());
process.on('SIGTTOU', () => {
  const figures = watch.stop();
  if (!figures) return;
  mkdirSync(GC_WATCH_DIR, { recursive: true });
  // written aside and renamed: the reader waits for the name, and must never find it half-written
  const file = join(GC_WATCH_DIR, `${process.pid}.json`);
  writeFileSync(`${file}.partial`, JSON.stringify(figures));
  renameSync(`${file}.partial`, file);
});
