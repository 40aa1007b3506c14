import { fileURLToPath } from 'node:url';
import { entitySchemas } from '@platform/service-kit/db/entity-schema.ts';
import { tenantCountSchemas } from '@platform/service-kit/db/tenant-count.ts';
import { outboxEntity } from '@platform/service-kit/events/outbox-entity.ts';
import { idempotencyEntity } from '@platform/service-kit/idempotency/idempotency-entity.ts';
import { bpmResources } from '@platform/contracts/bpm/index.ts';
import { SEARCH_KINDS } from '@platform/contracts/search.ts';
import { withSearchIndexes } from '@platform/service-kit/search/search-sql.ts';

/** The partner-management service's own PostgreSQL schema. */
export const SCHEMA = 'bpm';
// the global search's prefix indexes beside the lists' (docs/adr/0116-global-search-fans-out.md)
export const schemas = entitySchemas(withSearchIndexes(bpmResources, SEARCH_KINDS, SCHEMA), SCHEMA);
export const entities = [...schemas.values(), ...tenantCountSchemas(bpmResources, SCHEMA), outboxEntity(SCHEMA), idempotencyEntity(SCHEMA)];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
