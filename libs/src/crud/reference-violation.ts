import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { foreignKeyName } from '../db/entity-schema.ts';
import { invalidField, type DomainError } from '../errors/domain-error.ts';
import { isScalar, type Resource } from './resource.ts';

/**
 * The 400 SVC-SYS-2001 of a create or update whose reference field names no record, or a record of
 * another tenant (decisions.md §3): the database's foreign key refused the row, and the key's name
 * (`foreignKeyName`) tells which field. Undefined for anything else.
 *
 * @example
 * catch (error) { throw referenceViolation(resource, error) ?? error; }
 */
export function referenceViolation(resource: Resource, error: unknown): DomainError | undefined {
  if (!(error instanceof ForeignKeyConstraintViolationException)) return undefined;
  const constraint = (error as unknown as { constraint?: string }).constraint;
  for (const [name, spec] of Object.entries(resource.fields)) {
    if (!isScalar(spec) || (!spec.references && !spec.referencesKey)) continue;
    if (foreignKeyName(resource, name) === constraint) return invalidField(name, spec.referencesKey?.unknown ?? 'field.reference');
  }
  return undefined;
}
