/**
 * Why a file's text could not be read, as its text row keeps it (FAILED or SKIPPED with `reason`):
 * a refusal that trying again would meet again (a malformed PDF, too many pages, too many pixels,
 * the time or memory limit), so the run records it and ends rather than being retried.
 */
export class ExtractionFailure extends Error {
  /** SKIPPED: a type whose words are not read; FAILED: one that could not be read. */
  readonly status: 'FAILED' | 'SKIPPED';

  constructor(reason: string, status: 'FAILED' | 'SKIPPED' = 'FAILED') {
    super(reason.length > 500 ? `${reason.slice(0, 497)}...` : reason);
    this.name = 'ExtractionFailure';
    this.status = status;
  }
}
