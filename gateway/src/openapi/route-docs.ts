import type { OperationTable } from '@platform/contracts/operation.ts';
import { OPERATION_TABLES } from '@platform/contracts/operations.ts';
import { HAND_WRITTEN_ROUTES } from '../routes/table.ts';
import { docSourcesOf } from './doc-sources.ts';
import type { OperationDoc } from './operation.ts';
import type { ProtoDocs } from './proto-docs.ts';

/** The document entries of a table of operations, each written by its own declaration. */
function operationDocs(table: OperationTable, docs: ProtoDocs): Record<string, OperationDoc> {
  return Object.fromEntries(Object.entries(table).map(([name, operation]) => [name, operation.doc(docSourcesOf(docs, operation))]));
}

/**
 * The words and bodies of the routes beyond the CRUD sets, each written by its route's declaration:
 * the few routes written in the gateway (streams, health, this document: routes/table.ts), then the
 * operations declared in libs/contracts. Each pair is [route table, its docs], in the order the
 * routers are registered.
 */
export function routeDocs(docs: ProtoDocs): [OperationTable, Record<string, OperationDoc>][] {
  return [...HAND_WRITTEN_ROUTES, ...OPERATION_TABLES].map((table) => [table, operationDocs(table, docs)]);
}
