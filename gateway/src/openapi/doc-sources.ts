import type { DocSources, Operation } from '@platform/contracts/operation.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { keySchema, schemaNames } from './record-schemas.ts';
import { pageRequest, ref } from './shared-schemas.ts';

/** What a declared operation's document entry is written from: its RPC's comment, the proto comments and the document's schemas. */
export function docSourcesOf(docs: ProtoDocs, operation: Operation<never, unknown>): DocSources {
  return {
    rpc: operation.rpc && docs.rpc(operation.rpc.method),
    field: (message, field) => docs.field(message, field),
    ref,
    record: (resource) => ref(schemaNames(resource).record),
    key: keySchema,
    pageRequest: (filter) => pageRequest(docs, filter, false),
  };
}
