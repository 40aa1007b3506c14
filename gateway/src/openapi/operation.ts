import type { OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from 'openapi3-ts/oas31';
import type { OperationDoc } from '@platform/contracts/operation.ts';
import { categoryOf } from '../http/path-category.ts';
import type { ParamKind } from '../http/query.ts';
import type { RouteSpec } from '../routes/route.ts';
import { errorRef, type ErrorStatus } from './responses.ts';
import { securityOf } from './security.ts';

export type { OperationDoc };

const ID: SchemaObject = { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };

const QUERY_SCHEMAS: Record<ParamKind, SchemaObject> = {
  id: ID,
  int: { type: 'integer', format: 'int32', minimum: -999_999_999, maximum: 999_999_999 },
  text: { type: 'string', maxLength: 1000 },
};

/** `/api/branch/:key` → `/api/branch/{key}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

const pathParamNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1] ?? '');

/**
 * Optional request headers, as components.parameters: those every operation reads
 * (docs/interface.md#authentication), the conditional ones a record's get, update and delete read
 * (docs/interface.md#conditional-requests), and the Idempotency-Key of the creates and the upload
 * (docs/interface.md#idempotent-requests).
 */
export const COMMON_HEADERS: Record<string, ParameterObject> = {
  ProjectCode: {
    name: 'X-Project-Code',
    in: 'header',
    required: false,
    description: 'Project identifier: recorded on the session and on exception entries, passed to the services.',
    schema: { type: 'string', maxLength: 100, pattern: '^[\\x20-\\x7e]*$' },
  },
  AcceptLanguage: {
    name: 'Accept-Language',
    in: 'header',
    required: false,
    description: "en or tr: the language of error messages (else the login's languageCode, else en).",
    schema: { type: 'string' },
  },
  IfNoneMatch: {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'Entity tags (W/"3", "3"; a list, W/ ignored) or *: when one names the record\'s version (* any record), 304 without a body. A malformed value is 400 SVC-SYS-2001.',
    schema: { type: 'string' },
  },
  IfMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description:
      'Entity tags (W/"3", "3"; a list, W/ ignored) or *: the record is written or deleted only while its stored version is one named (* any record), else 412 SVC-SYS-4002, checked with the write. A malformed value is 400 SVC-SYS-2001.',
    schema: { type: 'string' },
  },
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      "A key of the client's choosing (a UUID, say) that makes a retry safe, remembered per user for 24 hours from its first request: " +
      'the same key with the same request again is answered with the first answer and writes nothing (requests sent at once with one key wait for the first and write once); ' +
      'the same key with another request is 422 SVC-SYS-2001. A request that failed leaves the key unused. 1 to 255 printable ASCII characters, else 400 SVC-SYS-2001.',
    schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
  },
};

/**
 * The OpenAPI operation of one route: method and path from its table, parameters from its path and
 * declared query, security from the path's category, the error responses that the filter chain and
 * the route can give, and the words and bodies of `doc`.
 */
export function operationOf(route: RouteSpec, operationId: string, doc: OperationDoc): OperationObject {
  const category = categoryOf(route.path);
  const parameters: (ParameterObject | ReferenceObject)[] = [
    ...pathParamNames(route.path).map((name): ParameterObject => ({ name, in: 'path', required: true, schema: doc.pathParams?.[name] ?? ID })),
    ...Object.entries(route.query ?? {}).map(([name, kind]): ParameterObject => ({ name, in: 'query', required: false, schema: QUERY_SCHEMAS[kind] })),
    ...Object.entries(doc.query ?? {}).map(([name, schema]): ParameterObject => ({ name, in: 'query', required: false, schema })),
    ...(doc.headers ?? []),
    { $ref: '#/components/parameters/ProjectCode' },
    { $ref: '#/components/parameters/AcceptLanguage' },
  ];

  const statuses = new Set<ErrorStatus>([400, 403, 429, 500, 503, ...(doc.errors ?? [])]);
  if (category !== 'public') statuses.add(401);
  if (doc.body) statuses.add(413);
  if (pathParamNames(route.path).length > 0) statuses.add(404);

  const responses: Record<string, ResponseObject | ReferenceObject> = {};
  const ok = doc.ok;
  responses[String(ok.status)] =
    ok.status !== 200
      ? { description: ok.description, ...(ok.headers ? { headers: ok.headers } : {}) }
      : {
          description: ok.description,
          ...(ok.headers ? { headers: ok.headers } : {}),
          content: Object.fromEntries([ok.contentType ?? 'application/json', ...(ok.alsoContentTypes ?? [])].map((type) => [type, { schema: ok.schema }])),
        };
  if (doc.alsoAnswers && ok.status === 200) {
    responses[String(doc.alsoAnswers.status)] = {
      description: doc.alsoAnswers.description,
      content: { [ok.contentType ?? 'application/json']: { schema: ok.schema } },
    };
  } else if (doc.alsoAnswers) {
    // a second answer without a body (a redirect)
    responses[String(doc.alsoAnswers.status)] = { description: doc.alsoAnswers.description };
  }
  if (doc.notModified) responses['304'] = doc.notModified;
  for (const status of [...statuses].sort()) responses[String(status)] ??= errorRef(status);

  const operation: OperationObject = {
    operationId,
    tags: [doc.tag],
    summary: doc.summary,
    parameters,
    security: securityOf(route.path),
    responses,
  };
  if (doc.description) operation.description = doc.description;
  if (doc.body)
    operation.requestBody = { required: !doc.body.optional, content: { [doc.body.contentType ?? 'application/json']: { schema: doc.body.schema } } };
  return operation;
}
