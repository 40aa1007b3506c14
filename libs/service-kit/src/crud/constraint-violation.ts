import { CheckConstraintViolationException, ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { foreignKeyName, notBeforeCheckName, withinCheckName } from '../db/entity-schema.ts';
import { invalidField, type DomainError } from '@platform/kit/errors/domain-error.ts';
import { isScalar, type Resource } from '@platform/kit/resource/resource.ts';

/**
 * The 400 SVC-SYS-2001 of a create or update that a constraint of the table refused, naming the
 * field by the constraint's name; undefined for anything else:
 * - a foreign key (`foreignKeyName`): the reference names no record, or a record of another tenant
 *   (docs/interface.md#records);
 * - a `notBefore` check (`notBeforeCheckName`): the date lies before the one it must not precede;
 * - a `within` check (`withinCheckName`): the field is given without the field it lies within (a
 *   partner's cityId without its countryId).
 *
 * @example
 * catch (error) { throw constraintViolation(resource, error) ?? error; }
 */
export function constraintViolation(resource: Resource, error: unknown): DomainError | undefined {
  const isForeignKey = error instanceof ForeignKeyConstraintViolationException;
  if (!isForeignKey && !(error instanceof CheckConstraintViolationException)) return undefined;
  const constraint = (error as unknown as { constraint?: string }).constraint;
  for (const [name, spec] of Object.entries(resource.fields)) {
    if (!isScalar(spec)) continue;
    if (isForeignKey && (spec.references || spec.referencesKey) && foreignKeyName(resource, name) === constraint) {
      return invalidField(name, spec.referencesKey?.unknown ?? 'field.reference');
    }
    if (!isForeignKey && spec.notBefore && notBeforeCheckName(resource, name) === constraint) {
      return invalidField(name, 'field.notBefore', { other: spec.notBefore });
    }
    if (!isForeignKey && spec.within && withinCheckName(resource, name) === constraint) {
      return invalidField(name, 'field.within', { other: spec.within });
    }
  }
  return undefined;
}
