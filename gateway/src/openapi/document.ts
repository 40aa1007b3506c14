import type { OpenAPIObject, PathsObject } from 'openapi3-ts/oas31';
import { offers, type Resource } from '@platform/kit/resource/resource.ts';
import { crudRouteTable } from '../routes/crud.ts';
import type { RouteSpec } from '../routes/route.ts';
import { bulkSchemas } from './bulk-schemas.ts';
import { crudOperationDocs } from './crud-operations.ts';
import { COMMON_HEADERS, openApiPath, operationOf, type OperationDoc } from './operation.ts';
import { loadProtoDocs, type ProtoDocs } from './proto-docs.ts';
import { recordSchemas, schemaNames } from './record-schemas.ts';
import { errorResponseComponents } from './responses.ts';
import { routeDocs } from './route-docs.ts';
import { importSchemas } from './import-schemas.ts';
import { SECURITY_SCHEMES } from './security.ts';
import {
  exportRequestName,
  pageRequestName,
  pageResponse,
  pageResponseName,
  ref,
  resourceExportRequest,
  resourcePageRequest,
  sharedSchemas,
} from './shared-schemas.ts';
import { exportableFields } from '../export/columns.ts';

/**
 * The OpenAPI 3.1 document of the gateway's public port, generated from the same route tables the
 * routers are built from (routes/table.ts) and the resources' declarations, with the proto
 * comments as descriptions. A route held only to answer 404 (`notFoundOnly`) is no operation.
 *
 * @example
 * const document = buildOpenApiDocument(registry);
 * document.paths['/api/branch/{key}'].get.operationId // "getBranch"
 */
export function buildOpenApiDocument(resources: readonly Resource[], docs: ProtoDocs = loadProtoDocs()): OpenAPIObject {
  const paths: PathsObject = {};
  const add = (route: RouteSpec, operationId: string, doc: OperationDoc) => {
    if (route.notFoundOnly) return;
    const item = (paths[openApiPath(route.path)] ??= {});
    if (item[route.method]) throw new Error(`two operations for ${route.method.toUpperCase()} ${route.path}`);
    item[route.method] = operationOf(route, operationId, doc);
  };

  for (const [table, tableDocs] of routeDocs(docs)) {
    for (const [name, route] of Object.entries(table)) {
      const doc = tableDocs[name];
      if (!doc) throw new Error(`no API document entry for ${route.method.toUpperCase()} ${route.path}`);
      add(route, name, doc);
    }
  }

  const schemas = { ...sharedSchemas(docs) };
  schemas.SessionPage = pageResponse(docs, ref('Session'), 'A page of sessions.');
  schemas.ExceptionEntryPage = pageResponse(docs, ref('ExceptionEntry'), 'A page of exception-log entries.');
  schemas.HistoryEventPage = pageResponse(docs, ref('HistoryEvent'), "A page of a record's events, newest first.");
  Object.assign(schemas, importSchemas(docs));
  for (const resource of resources) {
    Object.assign(schemas, recordSchemas(resource, docs), bulkSchemas(resource));
    schemas[pageRequestName(resource)] = resourcePageRequest(docs, resource, resources);
    if (offers(resource, 'list')) {
      schemas[exportRequestName(resource)] = resourceExportRequest(
        docs,
        resource,
        resources,
        exportableFields(resource).map(([name]) => name),
      );
    }
    schemas[pageResponseName(resource)] = pageResponse(docs, ref(schemaNames(resource).record), `A page of ${resource.path} records.`, true);
    const table = crudRouteTable(resource);
    const operationDocs = crudOperationDocs(resource, docs);
    for (const [operation, route] of Object.entries(table) as [keyof typeof table, RouteSpec | undefined][]) {
      if (route) add(route, `${operation}${resource.name}`, operationDocs[operation]);
    }
  }

  return {
    openapi: '3.1.0',
    info: {
      title: 'Platform API',
      version: '0.1.0',
      description:
        "The REST interface of the platform's gateway (described in docs/interface.md). Generated at start from the gateway's route tables, the resource declarations and the proto comments.",
    },
    servers: [{ url: '/', description: 'This gateway' }],
    tags: [...new Set(Object.values(paths).flatMap((item) => Object.values(item).flatMap((operation) => (operation as { tags?: string[] }).tags ?? [])))].map(
      (name) => ({ name }),
    ),
    paths,
    components: {
      schemas,
      responses: errorResponseComponents(),
      parameters: COMMON_HEADERS,
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
