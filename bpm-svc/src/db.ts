import { fileURLToPath } from 'node:url';
import { entitySchemas } from '@platform/libs/db/entity-schema.ts';
import { tenantCountSchema } from '@platform/libs/db/tenant-count.ts';
import { bpmResources } from './resources/index.ts';

/** The partner-management service's own PostgreSQL schema. */
export const SCHEMA = 'bpm';
export const schemas = entitySchemas(bpmResources, SCHEMA);
/** The per-tenant row counts of the resources that keep one (an unfiltered list's totalElements). */
export const countSchemas = bpmResources.filter((resource) => resource.tenantCount).map((resource) => tenantCountSchema(resource, SCHEMA));
export const entities = [...schemas.values(), ...countSchemas];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
