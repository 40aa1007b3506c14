import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ClamdSettings } from '@platform/kit/config/clamd.ts';
import { clamdAddressText } from '@platform/kit/config/clamd.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { currentRequestId } from '@platform/kit/log/request-id.ts';
import { ClamdFailure, clamdScan } from './clamd-client.ts';
import { ScanMetrics } from './scan.metrics.ts';

/** What a scan found: no virus, a virus (clamd's signature name), or nothing because nothing scanned it. */
export type ScanVerdict = { verdict: 'clean' } | { verdict: 'infected'; signature: string } | { verdict: 'unscanned' };

/** Whose upload is scanned, for the exception-log entry of a scan that failed. */
export interface ScanCaller {
  userCode: string;
  crProcessId: number;
}

/** What a scan reads of a received upload: its staged bytes, and what its log lines name it by. */
export interface ScannedUpload {
  staged: { read(): Readable };
  checksum: string;
  fileSize: number;
}

/** Scans a received upload's bytes before it becomes a file (dms-svc/src/files/store-upload.ts). */
export interface UploadScanner {
  scan(upload: ScannedUpload, caller: ScanCaller): Promise<ScanVerdict>;
}

/** Where CLAMD_ADDRESS is unset: every upload is `unscanned`, and nothing is counted. */
export const NO_SCANNING: UploadScanner = { scan: () => Promise.resolve({ verdict: 'unscanned' }) };

/**
 * The upload scanner of dms-svc's settings (docs/adr/0096-what-a-scan-answers.md): none without
 * CLAMD_ADDRESS; else each upload's staged bytes are streamed to clamd (INSTREAM; the local store reads 1 MiB chunks: fewer, larger chunks cost clamd and Node less per byte) and
 * - a virus is the verdict `infected` (the caller refuses and audits it), logged with its signature;
 * - a file over clamd's StreamMaxLength is 413 SVC-SYS-3001 `upload.tooLargeToScan`, whatever
 *   CLAMD_FAIL_OPEN says: clamd read only its head, so it is refused, never passed, and logged as an
 *   error since clamd's StreamMaxLength should be at least DMS_MAX_UPLOAD_BYTES;
 * - clamd unreachable, too slow (CLAMD_TIMEOUT_MS) or answering an error is 503 SVC-SYS-5002
 *   `upload.scanUnavailable` under a refId with an exception-log entry (fail closed), or, with
 *   CLAMD_FAIL_OPEN (refused in production), `unscanned` with a warning and
 *   `dms_upload_unscanned_total` counted.
 *
 * @example
 * const scanner = uploadScannerOf(runtime, config.dms.clamd);
 * const { verdict } = await scanner.scan(received, { userCode: 'admin', crProcessId: 1 });
 */
export function uploadScannerOf(runtime: Runtime, settings: ClamdSettings | undefined): UploadScanner {
  // the series exist without scanning too (at zero), so the alert on failed scans always has data
  const metrics = new ScanMetrics(runtime.metrics);
  if (!settings) return NO_SCANNING;
  const where = clamdAddressText(settings.address);
  runtime.log.info({ clamd: where, timeoutMs: settings.timeoutMs, failOpen: settings.failOpen }, 'uploads are scanned by clamd');
  return {
    async scan(upload, caller) {
      const start = performance.now();
      const seconds = () => (performance.now() - start) / 1000;
      const about = { clamd: where, checksum: upload.checksum, fileSize: upload.fileSize, crProcessId: caller.crProcessId };
      try {
        const verdict = await clamdScan(settings.address, upload.staged.read(), settings.timeoutMs);
        metrics.scanned(verdict.infected ? 'infected' : 'clean', seconds());
        if (!verdict.infected) return { verdict: 'clean' };
        runtime.log.warn({ ...about, signature: verdict.signature, userCode: caller.userCode }, 'upload infected: refused');
        return { verdict: 'infected', signature: verdict.signature };
      } catch (error) {
        if (error instanceof ClamdFailure && error.reason === 'too-large') {
          metrics.scanned('too_large', seconds());
          runtime.log.error({ ...about, err: error }, 'upload larger than clamd scans (its StreamMaxLength): refused');
          throw new DomainError('SVC-SYS-3001', 'upload.tooLargeToScan');
        }
        metrics.scanned('failed', seconds());
        if (settings.failOpen) {
          metrics.storedUnscanned();
          runtime.log.warn({ ...about, err: error }, 'virus scan failed: upload stored unscanned (CLAMD_FAIL_OPEN)');
          return { verdict: 'unscanned' };
        }
        const refId = randomUUID();
        runtime.log.error({ ...about, refId, err: error }, 'virus scan failed: upload refused');
        runtime.recordFailure({
          refId,
          service: runtime.service,
          errorCode: 'SVC-SYS-5002',
          error,
          path: '/api/dms-file/upload',
          method: 'POST',
          userCode: caller.userCode,
          crProcessId: caller.crProcessId,
          requestId: currentRequestId(),
        });
        throw new DomainError('SVC-SYS-5002', 'upload.scanUnavailable', { refId });
      }
    },
  };
}
