import type { HeaderObject, ReferenceObject, SchemaObject } from 'openapi3-ts/oas31';
import type { MethodDefinition } from '@grpc/grpc-js';
import type { Resource, ServiceName } from '@platform/kit/resource/resource.ts';

/** The methods of the REST interface; `patch`, `head` and `options` serve the resumable upload (tus) alone. */
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch' | 'head' | 'options';

/**
 * How a query parameter is read (gateway/src/http/query.ts):
 * - `id`: a positive whole number (a tenant's crProcessId); empty is invalid;
 * - `int`: a whole number of up to 9 digits, maybe negative (the service checks its range); empty
 *   is absent;
 * - `text`: the string as sent (at most 1000 characters); empty is absent.
 */
export type ParamKind = 'id' | 'int' | 'text';

/** The query parameters a route reads, by name; a route that declares them refuses any other. */
export type QuerySpec = Readonly<Record<string, ParamKind>>;

type Schema = SchemaObject | ReferenceObject;

/** The error statuses a route may add to those of its path's category (the API document's responses). */
export type ExtraErrorStatus = 401 | 404 | 409 | 410 | 412 | 413 | 415 | 422;

/** What the API document says of an operation beyond its method, path and query: its words, bodies and extra refusals. */
export interface OperationDoc {
  tag: string;
  summary: string;
  description?: string | undefined;
  /** Schemas of the `:name` path parameters (a positive id when not given). */
  pathParams?: Record<string, Schema>;
  /** A request body (JSON unless `contentType` says otherwise); `optional` when it may be left out. */
  body?: { schema: Schema; optional?: boolean; contentType?: string };
  /** Query parameters read by the service behind a proxied route (the route's declaration names none). */
  query?: Record<string, SchemaObject>;
  /** Request headers the route reads beyond the common ones: references to components.parameters (`If-Match`). */
  headers?: ReferenceObject[];
  /** A 304 Not Modified answer without a body, and its headers (a conditional GET). */
  notModified?: { description: string; headers: Record<string, HeaderObject> };
  /** The success answer: 201, 204 or a 302 redirect without a body, else 200 with `schema` as `contentType` (JSON by default). */
  ok:
    | {
        status: 200;
        schema: Schema;
        description: string;
        contentType?: string;
        /** Further media types of the same answer (an export: CSV or XLSX, by its `format`). */
        alsoContentTypes?: readonly string[];
        headers?: Record<string, HeaderObject>;
      }
    | { status: 201 | 204 | 302; description: string; headers?: Record<string, HeaderObject> };
  /** Error statuses beyond those every route of its category can answer. */
  errors?: ExtraErrorStatus[];
  /** A second success status with the same body (health: 503 DOWN); without a body beside a bodiless one (a second redirect). */
  alsoAnswers?: { status: number; description: string };
}

/** What an operation's document entry is written from: the proto comments and the document's schemas. */
export interface DocSources {
  /** The comment of the operation's own RPC (undefined for a route without one). */
  readonly rpc: string | undefined;
  /** The comment of a field of a proto message (`platform.dms.v1.VerifyDmsAuditLogsResponse`, `intact`). */
  field(message: string, field: string): string | undefined;
  /** A schema of the document's components by name (`Me`, `LoginRequest`). */
  ref(name: string): ReferenceObject;
  /** A resource's record schema. */
  record(resource: Resource): ReferenceObject;
  /** The schema of a resource's key in its paths (a positive id, or an account's accountNo). */
  key(resource: Resource): SchemaObject;
  /** A page request body whose `filter` is `filter` (optional). */
  pageRequest(filter: SchemaObject): SchemaObject;
}

/** A generated unary method, as a caller uses it: its path, how its request is written and its answer read. */
export type RpcMethod<Req, Res> = Pick<MethodDefinition<Req, Res>, 'path' | 'requestSerialize' | 'responseDeserialize'>;

/** The RPC an operation calls: its service, its generated method, its retry class. */
export interface OperationRpc<Req, Res> {
  readonly service: ServiceName;
  readonly method: RpcMethod<Req, Res>;
  readonly retry: RetryClass;
}

/**
 * Whether the RPC may be sent again when its service was unavailable: `read` only reads (the
 * gateway's channels retry it on UNAVAILABLE), `write` changes something and is never retried.
 */
export type RetryClass = 'read' | 'write';

/**
 * One operation of the REST interface beyond the CRUD sets, declared once: its route (method, path,
 * the query it reads), the RPC it calls with its service and retry class, and its API document
 * entry. The gateway builds its router, its API document and its retry policy from these.
 */
export interface Operation<Req = never, Res = unknown> {
  readonly method: HttpMethod;
  /** The express path: `:name` segments are path parameters. */
  readonly path: string;
  readonly query?: QuerySpec;
  /** The RPC the route calls; a route the gateway answers without one (a relayed stream, health, the docs) has none. */
  readonly rpc?: OperationRpc<Req, Res>;
  readonly doc: (sources: DocSources) => OperationDoc;
}

/** A table of operations by name, in the order their routes are matched. */
export type OperationTable = Readonly<Record<string, Operation<never, unknown>>>;

/**
 * Declares one operation that calls an RPC, with the RPC's request and response types kept (the
 * gateway's handler calls `op.rpc.method` typed).
 *
 * @example
 * approveAccrual: rpcOperation({ method: 'post', path: '/api/accrual/:id/approve', rpc: { service: 'bpm', method: AccrualServiceService.approveAccrual, retry: 'write' }, doc: ... })
 */
export function rpcOperation<Req, Res, const O extends Omit<Operation<Req, Res>, 'rpc'>>(
  operation: O & { readonly rpc: OperationRpc<Req, Res> },
): O & { readonly rpc: OperationRpc<Req, Res> } {
  return operation;
}
