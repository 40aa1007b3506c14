import { fileURLToPath } from 'node:url';
import { entitySchemas } from '@platform/libs/db/entity-schema.ts';
import { tenantCountSchemas } from '@platform/libs/db/tenant-count.ts';
import { outboxEntity } from '@platform/libs/events/outbox-entity.ts';
import { idempotencyEntity } from '@platform/libs/idempotency/idempotency-entity.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';

/** The partner-management service's own PostgreSQL schema. */
export const SCHEMA = 'bpm';
export const schemas = entitySchemas(bpmResources, SCHEMA);
export const entities = [...schemas.values(), ...tenantCountSchemas(bpmResources, SCHEMA), outboxEntity(SCHEMA), idempotencyEntity(SCHEMA)];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
