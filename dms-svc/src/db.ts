import { fileURLToPath } from 'node:url';
import type { EntitySchema } from '@mikro-orm/postgresql';
import { entitySchemas } from '@platform/libs/db/entity-schema.ts';
import type { RowOf } from '@platform/libs/crud/records.ts';
import type { Resource } from '@platform/libs/crud/resource.ts';
import { dmsResources } from './resources/index.ts';
import { dmsAccountConfig } from './resources/dms-account-config/dms-account-config.resource.ts';
import { dmsAuditLog } from './resources/dms-audit-log/dms-audit-log.resource.ts';

/** The document service's own PostgreSQL schema. */
export const SCHEMA = 'dms';
export const schemas = entitySchemas(dmsResources, SCHEMA);

/** The entity of a resource, typed by its declaration (RowOf), for the service's own queries. */
function schemaOf<R extends Resource>(resource: R): EntitySchema<RowOf<R>> {
  const schema = schemas.get(resource.path);
  if (!schema) throw new Error(`no entity for ${resource.path}`);
  return schema as unknown as EntitySchema<RowOf<R>>;
}

export const DmsAuditLogEntity = schemaOf(dmsAuditLog);
export const DmsAccountConfigEntity = schemaOf(dmsAccountConfig);

export const entities = [...schemas.values()];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
