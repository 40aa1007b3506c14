import { Counter, Histogram, type Registry } from 'prom-client';

/** What became of one upload's scan: a verdict, or which failure kept it from one. */
export type ScanOutcome = 'clean' | 'infected' | 'too_large' | 'failed';

/** Scan durations in seconds: a small file takes milliseconds, a gigabyte tens of seconds. */
const SCAN_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The virus scan's figures on dms-svc's /metrics (dms-svc/src/scan/upload-scanner.ts): scans by
 * outcome (`dms_upload_scans_total{outcome="clean|infected|too_large|failed"}`), how long each took
 * (`dms_upload_scan_seconds`, every outcome), and the uploads stored without a verdict because
 * CLAMD_FAIL_OPEN let them through (`dms_upload_unscanned_total`).
 *
 * @example
 * const metrics = new ScanMetrics(registry);
 * metrics.scanned('clean', 0.042);
 */
export class ScanMetrics {
  readonly #scans: Counter<'outcome'>;
  readonly #duration: Histogram;
  readonly #unscanned: Counter;

  constructor(registry: Registry) {
    this.#scans = new Counter({ name: 'dms_upload_scans_total', help: 'Virus scans of uploads by outcome', labelNames: ['outcome'], registers: [registry] });
    this.#duration = new Histogram({
      name: 'dms_upload_scan_seconds',
      help: 'Time one virus scan of an upload took',
      buckets: SCAN_BUCKETS,
      registers: [registry],
    });
    this.#unscanned = new Counter({
      name: 'dms_upload_unscanned_total',
      help: 'Uploads stored without a verdict under CLAMD_FAIL_OPEN',
      registers: [registry],
    });
    // every outcome is a series from the start, so a rate over it is never "no data"
    for (const outcome of ['clean', 'infected', 'too_large', 'failed'] satisfies ScanOutcome[]) this.#scans.inc({ outcome }, 0);
  }

  scanned(outcome: ScanOutcome, seconds: number): void {
    this.#scans.inc({ outcome });
    this.#duration.observe(seconds);
  }

  storedUnscanned(): void {
    this.#unscanned.inc();
  }
}
