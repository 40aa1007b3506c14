/**
 * The idempotency keys of a service (docs/adr/0078-idempotent-requests.md): one row per key a
 * caller sent with a create, claimed by the create's own transaction as its first statement and
 * holding the create's answer once it commits (idempotency.ts). Each service keeps its own in its
 * own schema (`<schema>.<schema>_idempotency`: the schema diff tells tables apart by their bare names).
 * A row is live for 24 hours from `created_at`; after that a repeat of its key is a new request,
 * and the sweep (idempotency-sweep.ts) deletes it.
 */
import { EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '../db/entity-schema.ts';

/** The entity name every service's ORM knows its key table by (idempotency.ts reads its table by it). */
export const IDEMPOTENCY_ENTITY = 'IdempotencyKey';

/** The idempotency table of the service whose schema is `schema`. */
export function idempotencyEntity(schema: string): EntitySchema<Row> {
  const table = idempotencyTable(schema);
  return new EntitySchema<Row>({
    name: IDEMPOTENCY_ENTITY,
    tableName: table,
    schema,
    properties: {
      /** Whose key: the caller's user code, `svc:<service>` for another service (keys are per caller). */
      owner: { type: 'string', length: 100, primary: true },
      idempotencyKey: { type: 'string', length: 255, primary: true },
      /** HMAC-SHA-256 (hex) of the request's canonical form: the operation and what it was asked to write (fingerprint.ts). */
      fingerprint: { type: 'string', length: 64 },
      /** The answer the create gave, written by its transaction before it commits. */
      answer: { type: 'json', nullable: true },
      createdAt: { type: 'datetime', columnType: 'timestamptz' },
    } as never,
    indexes: [{ name: `${table}_created_at_index`, properties: ['createdAt'] as never }],
  });
}

/** The idempotency table's bare name in `schema`. */
export function idempotencyTable(schema: string): string {
  return `${schema}_idempotency`;
}
