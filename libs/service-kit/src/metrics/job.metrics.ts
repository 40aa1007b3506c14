import { Counter, Histogram, type Registry } from 'prom-client';

/** Run times of background jobs: from a millisecond sweep to an hour of retention. */
const RUN_BUCKETS = [0.01, 0.05, 0.25, 1, 5, 30, 120, 600, 3600];

/**
 * A worker's figures on its /metrics (libs/service-kit/src/jobs/job-queue.ts): the runs of each job
 * by outcome (`job_runs_total{queue, outcome="completed|failed"}`; a failed run is retried per its
 * policy) and how long they took (`job_run_seconds{queue}`). The job's name is the label `queue`:
 * `job` is Prometheus' own target label (the process).
 *
 * @example
 * const metrics = new JobMetrics(registry);
 * metrics.ran('dms.retention', true, 1.2);
 */
export class JobMetrics {
  readonly #runs: Counter<'queue' | 'outcome'>;
  readonly #seconds: Histogram<'queue'>;

  constructor(registry: Registry) {
    this.#runs = new Counter({
      name: 'job_runs_total',
      help: 'Background job runs by queue and outcome',
      labelNames: ['queue', 'outcome'],
      registers: [registry],
    });
    this.#seconds = new Histogram({
      name: 'job_run_seconds',
      help: 'Background job run time',
      labelNames: ['queue'],
      buckets: RUN_BUCKETS,
      registers: [registry],
    });
  }

  ran(queue: string, ok: boolean, seconds: number): void {
    this.#runs.inc({ queue, outcome: ok ? 'completed' : 'failed' });
    this.#seconds.observe({ queue }, seconds);
  }
}
