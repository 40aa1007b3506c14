import { ERRORS } from '@tus/utils';
import { DomainError, invalidField, notFound } from '@platform/kit/errors/domain-error.ts';
import { TUS_CONTENT_TYPE } from '@platform/kit/errors/codes.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { tooLarge } from '../files/tenant-limits.ts';

/**
 * The platform's error for a refusal of @tus/server (its ERRORS, or a status it wrote itself),
 * per docs/adr/0094-resumable-uploads-across-replicas.md: an Upload-Offset that is not the upload's is 409
 * SVC-SYS-4002; a lock another request holds past the wait 409 SVC-SYS-4002; an upload gone
 * (expired, terminated, unknown) 404 SVC-SYS-4001; bytes beyond Upload-Length 413 SVC-SYS-3001; a
 * missing or wrong Content-Type 415 SVC-SYS-2001; any other malformed request 400 SVC-SYS-2001.
 * Undefined for what is no refusal of the client's (tus's 500s): the caller answers those as
 * unexpected failures (500 SVC-SYS-5001 with a refId).
 */
export function domainErrorOfTus(error: unknown, status: number): DomainError | undefined {
  if (error === ERRORS.INVALID_OFFSET) return new DomainError('SVC-SYS-4002', 'tus.offset');
  if (error === ERRORS.ERR_LOCK_TIMEOUT || error === ERRORS.ABORTED) return new DomainError('SVC-SYS-4002', 'tus.locked');
  if (error === ERRORS.INVALID_CONTENT_TYPE) return new DomainError(TUS_CONTENT_TYPE.code, TUS_CONTENT_TYPE.messageKey);
  if (error === ERRORS.MISSING_OFFSET) return invalidField('Upload-Offset');
  if (error === ERRORS.INVALID_METADATA) return invalidField('Upload-Metadata');
  if (error === ERRORS.INVALID_LENGTH || error === ERRORS.UNSUPPORTED_CREATION_DEFER_LENGTH_EXTENSION) return invalidField('Upload-Length');
  if (error === ERRORS.INVALID_TERMINATION) return new DomainError('SVC-SYS-4002', 'tus.completed');
  if (status === 404 || status === 410) return notFound(dmsFile.path);
  if (status === 413) return tooLarge();
  if (status === 409) return new DomainError('SVC-SYS-4002', 'tus.offset');
  if (status >= 400 && status < 500) return new DomainError('SVC-SYS-2001', 'tus.header', { header: 'tus' });
  return undefined;
}
