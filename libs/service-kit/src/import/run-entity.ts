/**
 * The import runs of a service (docs/interface.md#import):
 * one row per file uploaded for one of the service's entities, with its mapping, options, state and
 * counts, and the file itself until the run ends; and the errors its rows met, one row each. Each
 * service keeps its own in its own schema (`<schema>_import_run`, `<schema>_import_error`), behind
 * the tenant wall as every tenant table.
 */
import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';
import { tenantWall } from '../db/tenant-wall.ts';

export const IMPORT_RUN_ENTITY = 'ImportRun';
export const IMPORT_ERROR_ENTITY = 'ImportError';

/**
 * A run's states: UPLOADING while its parts arrive, PREVIEW once uploaded; CHECKING while its dry run runs, CHECKED after it; QUEUED
 * once started, RUNNING while its job writes; then DONE, FAILED (its message says why) or
 * CANCELLED. A dry run may run again from CHECKED; an import starts from PREVIEW or CHECKED.
 */
export const IMPORT_STATES = ['UPLOADING', 'PREVIEW', 'CHECKING', 'CHECKED', 'QUEUED', 'RUNNING', 'DONE', 'FAILED', 'CANCELLED'] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export function importRunEntity(schema: string): EntitySchema<Row> {
  const table = `${schema}_import_run`;
  return new EntitySchema<Row>({
    name: IMPORT_RUN_ENTITY,
    tableName: table,
    schema,
    policies: tenantWall(),
    properties: {
      id: { type: new BigIntType('number'), primary: true, autoincrement: true },
      crProcessId: { type: new BigIntType('number') },
      entity: { type: 'string', length: 64 },
      fileName: { type: 'string', length: 255 },
      fileSize: { type: new BigIntType('number') },
      format: { type: 'string', length: 8 },
      status: { type: 'string', length: 16 },
      /** The file's bytes, until the run ends (then null). */
      file: { type: 'blob', columnType: 'bytea', nullable: true, lazy: true },
      header: { type: 'json' },
      /** For each column, the field it fills, or null. */
      mapping: { type: 'json' },
      updateByCode: { type: 'boolean', default: false },
      /** `check` (a dry run) or `import`: what the run's job does. */
      mode: { type: 'string', length: 8, nullable: true },
      cancelRequested: { type: 'boolean', default: false },
      totalRows: { type: 'integer', default: 0 },
      /** Rows done (by the job, chunk by chunk): a resumed run starts after them. */
      processed: { type: 'integer', default: 0 },
      created: { type: 'integer', default: 0 },
      updated: { type: 'integer', default: 0 },
      unchanged: { type: 'integer', default: 0 },
      failed: { type: 'integer', default: 0 },
      /** Why a FAILED run stopped: a message key and its parameters. */
      messageKey: { type: 'string', length: 64, nullable: true },
      messageParams: { type: 'json', nullable: true },
      createdBy: { type: 'string', length: 100 },
      createdAt: { type: 'datetime', columnType: 'timestamptz' },
      updatedAt: { type: 'datetime', columnType: 'timestamptz' },
      finishedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    } as never,
    indexes: [{ name: `${table}_tenant_index`, properties: ['crProcessId', 'entity', 'id'] as never }],
  });
}

export function importErrorEntity(schema: string): EntitySchema<Row> {
  const table = `${schema}_import_error`;
  return new EntitySchema<Row>({
    name: IMPORT_ERROR_ENTITY,
    tableName: table,
    schema,
    policies: tenantWall(),
    properties: {
      id: { type: new BigIntType('number'), primary: true, autoincrement: true },
      runId: { type: new BigIntType('number') },
      crProcessId: { type: new BigIntType('number') },
      /** The row's number in the file, the header being 1. */
      rowNumber: { type: 'integer' },
      /** The column's header, when the error is one cell's. */
      columnName: { type: 'string', length: 255, nullable: true },
      field: { type: 'string', length: 64, nullable: true },
      code: { type: 'string', length: 16 },
      messageKey: { type: 'string', length: 64 },
      messageParams: { type: 'json' },
    } as never,
    indexes: [{ name: `${table}_run_index`, properties: ['runId', 'rowNumber'] as never }],
  });
}

/** A service's two import tables. */
export function importEntities(schema: string): EntitySchema<Row>[] {
  return [importRunEntity(schema), importErrorEntity(schema)];
}
