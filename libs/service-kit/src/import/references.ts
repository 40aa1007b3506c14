/**
 * References in an imported file (docs/interface.md#import): a cell of a `references` field names
 * its record by the target's code (its single-field unique key within the tenant), else by its
 * name when exactly one record of the tenant has it, else by its id. Resolved once per distinct
 * cell and run, in the run's tenant (row-level security holds the read to it), in the target's
 * table, be it in another service's schema of the same database (a partner's country in core).
 */
import type { EntityManager } from '@mikro-orm/postgresql';
import { DomainError, invalidField } from '@platform/kit/errors/domain-error.ts';
import { isScalar, type Resource, type ScalarField } from '@platform/kit/resource/resource.ts';
import { snake } from '../db/entity-schema.ts';

/** The field a record of `resource` is known by in a file: its single-field unique string, tenant-wide. */
export function codeFieldOf(resource: Resource): string | undefined {
  for (const [name, spec] of Object.entries(resource.fields)) {
    if (isScalar(spec) && (spec.unique === 'tenant' || spec.unique === 'global') && (spec.kind === 'string' || spec.kind === 'long')) return name;
  }
  for (const key of resource.uniques ?? []) {
    const [only] = key;
    if (key.length === 1 && only !== undefined) return only;
  }
  return undefined;
}

/** A name field of `resource`: `name`, else the first string field whose name ends in `Name`. */
function nameFieldOf(resource: Resource): string | undefined {
  const names = Object.keys(resource.fields);
  return names.find((name) => name === 'name') ?? names.find((name) => name.endsWith('Name') && (resource.fields[name] as ScalarField).kind === 'string');
}

/** Resolves references of one run: the tenant's, cached per field and cell. */
export class ReferenceResolver {
  private readonly cache = new Map<string, number | DomainError>();
  private readonly crProcessId: number;
  private readonly registry: ReadonlyMap<string, Resource>;

  constructor(crProcessId: number, registry: ReadonlyMap<string, Resource>) {
    this.crProcessId = crProcessId;
    this.registry = registry;
  }

  /** The id a cell names for `field`, or throws 400 SVC-SYS-2001 naming the field. */
  async resolve(em: EntityManager, field: string, spec: ScalarField, text: string): Promise<number> {
    const key = `${field}\u0000${text}`;
    let found = this.cache.get(key);
    if (found === undefined) {
      found = await this.lookUp(em, field, spec, text).catch((error: unknown) => {
        if (error instanceof DomainError) return error;
        throw error;
      });
      this.cache.set(key, found);
    }
    if (found instanceof DomainError) throw found;
    return found;
  }

  private async lookUp(em: EntityManager, field: string, spec: ScalarField, text: string): Promise<number> {
    const target = spec.references === undefined ? undefined : this.registry.get(spec.references);
    if (!target) throw invalidField(field, 'field.reference');
    const table = `"${target.service}"."${target.table ?? target.path.replaceAll('-', '_')}"`;
    const code = codeFieldOf(target);
    if (code !== undefined) {
      const rows = await em.execute<{ id: string }[]>(`select id from ${table} where cr_process_id = ? and ${snake(code)}::text = ? limit 2`, [
        this.crProcessId,
        text,
      ]);
      if (rows.length === 1 && rows[0]) return Number(rows[0].id);
    }
    const name = nameFieldOf(target);
    if (name !== undefined) {
      const rows = await em.execute<{ id: string }[]>(`select id from ${table} where cr_process_id = ? and lower(${snake(name)}) = lower(?) limit 2`, [
        this.crProcessId,
        text,
      ]);
      if (rows.length > 1) throw invalidField(field, 'import.referenceAmbiguous', { value: text.slice(0, 100) });
      if (rows[0]) return Number(rows[0].id);
    }
    // an id: the database's foreign key says whether it is a record of the tenant
    if (/^[1-9]\d{0,15}$/.test(text)) return Number(text);
    throw invalidField(field, 'import.reference', { value: text.slice(0, 100) });
  }
}
