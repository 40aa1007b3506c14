import { fileURLToPath } from 'node:url';
import { entitySchemas } from '@platform/service-kit/db/entity-schema.ts';
import { tenantCountSchemas } from '@platform/service-kit/db/tenant-count.ts';
import { outboxEntity } from '@platform/service-kit/events/outbox-entity.ts';
import { importEntities } from '@platform/service-kit/import/run-entity.ts';
import { idempotencyEntity } from '@platform/service-kit/idempotency/idempotency-entity.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { SEARCH_KINDS } from '@platform/contracts/search.ts';

/** The partner-management service's own PostgreSQL schema. */
export const SCHEMA = 'bpm';
// the fields the global search matches by prefix share the lists' prefix indexes (db/prefix-index.ts)
export const schemas = entitySchemas(bpmResources, SCHEMA, {}, SEARCH_KINDS);
export const entities = [
  ...schemas.values(),
  ...tenantCountSchemas(bpmResources, SCHEMA),
  outboxEntity(SCHEMA),
  ...importEntities(SCHEMA),
  idempotencyEntity(SCHEMA),
];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
