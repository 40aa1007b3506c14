import { monitorEventLoopDelay } from 'node:perf_hooks';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * For benchmarks: when EVENT_LOOP_REPORT_DIR is set, the process measures its event-loop delay;
 * SIGUSR2 starts a fresh measurement and SIGUSR1 writes `<dir>/<name>.json` with the delay's
 * percentiles in milliseconds. Without the variable it does nothing.
 */
export function reportEventLoopDelay(name: string, dir = process.env.EVENT_LOOP_REPORT_DIR): void {
  if (!dir) return;
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  process.on('SIGUSR2', () => histogram.reset());
  process.on('SIGUSR1', () => {
    const ms = (ns: number) => Math.round(ns / 1e4) / 100;
    writeFileSync(
      join(dir, `${name}.json`),
      JSON.stringify({ p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), samples: histogram.count }),
    );
  });
}
