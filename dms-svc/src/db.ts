import { fileURLToPath } from 'node:url';
import { entitySchemas } from '@platform/libs/db/entity-schema.ts';
import { dmsResources } from './resources/index.ts';

/** The document service's own PostgreSQL schema. */
export const SCHEMA = 'dms';
export const schemas = entitySchemas(dmsResources, SCHEMA);
export const entities = [...schemas.values()];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
