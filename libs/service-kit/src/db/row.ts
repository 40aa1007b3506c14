/**
 * A row as MikroORM hydrates it and the column names of its properties: what the entity builders
 * (entity-schema.ts, list-indexes.ts, tenant-count.ts) share, kept below them so that none of them
 * imports another for it.
 */

/** A database row of a resource as MikroORM hydrates it: property name to JS value. */
export type Row = Record<string, unknown>;

/** The column of a property: `crProcessId` → `cr_process_id`. */
export function snake(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}
