import type { HeaderObject } from 'openapi3-ts/oas31';

/**
 * The mark of a replayed answer (docs/interface.md#idempotent-requests), as the API document shows
 * it on every route that takes an Idempotency-Key: the CRUD creates (openapi/crud-operations.ts)
 * and the uploads declared here.
 */
export const REPLAYED: Record<string, HeaderObject> = {
  'Idempotent-Replayed': {
    description: 'true when the answer is the stored answer of the request first sent with this Idempotency-Key, and nothing was written; absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
};
