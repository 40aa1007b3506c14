import { isScalar, tableOf, type Resource } from '@platform/kit/resource/resource.ts';
import type { SearchKind } from '@platform/kit/resource/search-kind.ts';
import { prefixIndexes } from './prefix-index.ts';
import { snake } from './row.ts';

/** An index of an entity as MikroORM's EntitySchema declares it. */
export interface IndexDef {
  name: string;
  properties?: string[];
  expression?: string;
}

/**
 * The indexes a resource's lists need beyond the tenant's: each `listIndexes` entry as a btree
 * prefixed with cr_process_id, and with `searchIndex` a pg_trgm GIN index per searchable field
 * and each text field its list matches by containment (the extension is created by the migration
 * that first needs it), and per text field matched by prefix, by its list or by the search `kinds`
 * over it, one btree over the folded field (prefix-index.ts). The GIN and prefix indexes are
 * declared as raw DDL, since MikroORM has no operator classes: the migration diff matches them by
 * name.
 *
 * @example
 * listIndexes(businessPartner, 'bpm')
 * // [{ name: 'business_partner_cr_process_id_partner_name_id_index', properties: ['crProcessId', 'partnerName', 'id'] },
 * //  { name: 'business_partner_partner_name_trgm_index', expression: 'create index ... using gin ("partner_name" gin_trgm_ops)' }, ...]
 */
export function listIndexes(resource: Resource, schema: string, kinds: readonly SearchKind[] = []): IndexDef[] {
  const table = tableOf(resource);
  const btrees = (resource.listIndexes ?? []).map((fields) => {
    const properties = ['crProcessId', ...fields];
    return { name: `${table}_${properties.map(snake).join('_')}_index`, properties };
  });
  const trigramFields = new Set([
    ...(resource.searchIndex ? Object.entries(resource.fields).filter(([, spec]) => isScalar(spec) && spec.searchable) : []).map(([field]) => field),
    ...Object.entries(resource.list?.match ?? {})
      .filter(([, match]) => match === 'contains')
      .map(([field]) => field),
  ]);
  const trigrams = [...trigramFields].map((field) => {
    const name = `${table}_${snake(field)}_trgm_index`;
    return { name, expression: `create index "${name}" on "${schema}"."${table}" using gin ("${snake(field)}" gin_trgm_ops)` };
  });
  const prefixes = prefixIndexes(resource, schema, kinds);
  const work = (resource.workIndexes ?? []).map(({ name, expression }) => ({ name, expression }));
  return [...btrees, ...trigrams, ...prefixes, ...work];
}
