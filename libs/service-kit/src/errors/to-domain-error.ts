import { randomUUID } from 'node:crypto';
import {
  DeadlockException,
  DriverException,
  ForeignKeyConstraintViolationException,
  NotFoundError,
  NotNullConstraintViolationException,
  OptimisticLockError,
  UniqueConstraintViolationException,
  CheckConstraintViolationException,
} from '@mikro-orm/core';
import { isDatabaseUnavailable } from './database-unavailable.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import { uniqueKeyColumns } from '../db/unique-keys.ts';

/** What the service side knows of an unexpected failure; the hook records it (exception log). */
export interface UnexpectedFailure {
  refId: string;
  error: unknown;
}

/**
 * Turns anything a handler threw into a DomainError (the service side; the gateway, which loads no
 * ORM, reads statuses back with grpc-status.ts): domain errors pass, MikroORM's and the
 * database's violations get their codes, a database that cannot be reached is SVC-SYS-5002, and
 * everything else becomes SVC-SYS-5001 with a fresh refId (the caller logs the original under it; its text never leaves the service).
 */
export function toDomainError(error: unknown, onUnexpected: (failure: UnexpectedFailure) => void): DomainError {
  if (error instanceof DomainError) return error;
  if (error instanceof OptimisticLockError) return new DomainError('SVC-SYS-4002', 'version.stale');
  // PostgreSQL aborted one of two writes that waited on each other: nothing of it was written, and
  // like a stale version it is a collision with a concurrent write (retry) rather than a fault
  if (error instanceof DeadlockException) return new DomainError('SVC-SYS-4002', 'version.stale');
  if (error instanceof NotFoundError) return new DomainError('SVC-SYS-4001', 'record.notFound', { resource: 'record' });
  if (error instanceof UniqueConstraintViolationException) {
    return new DomainError('SVC-SYS-4005', 'record.duplicate', { field: keyFieldOf(error) });
  }
  if (error instanceof ForeignKeyConstraintViolationException) {
    // 23503 on DELETE means someone references the row; on INSERT/UPDATE a dangling reference
    // (the CRUD engine names the field from the declaration first: crud/constraint-violation.ts).
    return /delete/i.test(sqlOf(error))
      ? new DomainError('SVC-SYS-4003', 'record.referenced')
      : new DomainError('SVC-SYS-2001', 'field.reference', { field: keyFieldOf(error) });
  }
  if (error instanceof NotNullConstraintViolationException) {
    return new DomainError('SVC-SYS-2001', 'field.required', { field: columnOf(error) ?? 'field' });
  }
  if (error instanceof CheckConstraintViolationException) {
    return new DomainError('SVC-SYS-2001', 'field.invalid', { field: columnOf(error) ?? 'field' });
  }
  if (error instanceof DriverException && isInvalidValue(error)) {
    return new DomainError('SVC-SYS-2001', 'field.invalid', { field: columnOf(error) ?? 'field' });
  }
  // the database down or restarting: a backing service unavailable, not a fault of this request
  if (isDatabaseUnavailable(error)) return new DomainError('SVC-SYS-5002', 'service.unavailable');
  const refId = randomUUID();
  onUnexpected({ refId, error });
  return new DomainError('SVC-SYS-5001', 'server.error', { refId });
}

interface PgDetails {
  code?: string;
  constraint?: string;
  column?: string;
  detail?: string;
}

function pgOf(error: DriverException): PgDetails {
  return error as unknown as PgDetails;
}

function sqlOf(error: DriverException): string {
  return (error as unknown as { query?: string }).query ?? error.message;
}

function columnOf(error: DriverException): string | undefined {
  const column = pgOf(error).column;
  return column ? camel(column) : undefined;
}

/**
 * `Key (cr_process_id, branch_code)=(1, X) already exists.` or `Key (cr_process_id, group_id)=(2, 7)
 * is not present in table ...` → the last column but the tenant's, camelCased.
 */
function keyFieldOf(error: DriverException): string {
  const match = /Key \(([^)]*)\)=/.exec(pgOf(error).detail ?? error.message);
  // under row-level security PostgreSQL names no key (db/unique-keys.ts): the constraint's own columns
  const columns = match?.[1]?.split(',').map((c) => c.trim().replace(/"/g, '')) ?? uniqueKeyColumns(pgOf(error).constraint) ?? [];
  const own = columns.filter((c) => c !== 'cr_process_id');
  return camel(own.at(-1) ?? columns.at(-1) ?? 'field');
}

// 22001 value too long, 22003 numeric out of range, 22007/22008 bad date or time, 22P02 bad text.
function isInvalidValue(error: DriverException): boolean {
  const code = pgOf(error).code;
  return code === '22001' || code === '22003' || code === '22007' || code === '22008' || code === '22P02';
}

function camel(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
