import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import type { BinaryWriter } from '@bufbuild/protobuf/wire';
import type { MessageKey } from '../i18n/messages.ts';
import type { ResourceForm } from './form.ts';
import type { ResourceLabels } from './labels.ts';
import type { FieldsOfKind, ListView } from './list-view.ts';

/**
 * Kinds of scalar field. Each kind fixes the JSON type, the proto type, the column type and which
 * filters apply: `long`, `int`, `decimal`, `date` and `datetime` also take `<field>From` /
 * `<field>To` range filters (docs/interface.md#lists).
 */
export type FieldKind = 'string' | 'text' | 'long' | 'int' | 'boolean' | 'decimal' | 'date' | 'datetime' | 'enum';

/** A scalar field of a resource. */
export interface ScalarField {
  kind: FieldKind;
  /** What the field holds: its proto comment, and so the API document's description (scripts/proto-resources.ts). */
  doc?: string;
  /** Required on create. */
  required?: boolean;
  /** Longest string (default 255 for `string`). */
  maxLength?: number;
  minLength?: number;
  /** Most bytes of the string's UTF-8 (a password: bcrypt reads only the first 72). */
  maxBytes?: number;
  /** Allowed values of an `enum`. */
  values?: readonly string[];
  /** Smallest and largest number of a `long`, `int` or `decimal`. */
  min?: number;
  max?: number;
  /** Value stored when a create omits the field. */
  default?: string | number | boolean;
  /** Accepted on write, never returned (passwords). */
  writeOnly?: boolean;
  /** Shown to its owner, never written into an event or a record's history (a signing secret). */
  secret?: true;
  /** Returned, never written through the API (computed by the service). */
  readOnly?: boolean;
  /**
   * Not a column: computed for each record going out by the resource's `decorate` hook (dms-file's
   * signed `downloadUrl`). Read-only; neither sorted nor filtered by.
   */
  computed?: true;
  /** Set on create, never changed by an update (a different value is 400). */
  immutable?: boolean;
  /** A regular expression (source) the whole string must match: ISO codes (`^[A-Z]{2}$`). */
  pattern?: string;
  /**
   * A date not before another date field of the same record (`endDate: { notBefore: 'startDate' }`),
   * kept by a check constraint of the table (400 SVC-SYS-2001 naming the field).
   */
  notBefore?: string;
  /**
   * Computed by the database from other columns of the row (an SQL expression over column names,
   * stored): `quantity * unit_price`. Read-only.
   */
  generated?: string;
  /** Matched by `searchTerm` (case-insensitive substring). */
  searchable?: boolean;
  /** `tenant`: unique per crProcessId; `global`: unique across tenants. */
  unique?: 'tenant' | 'global';
  /**
   * A reference (`...Id`) to a record of the same tenant of another resource (of the same service,
   * or of `referencesService`), by its id: a foreign key (crProcessId, field) → (crProcessId, id),
   * so the database refuses a record of another tenant, one that does not exist, and deleting a
   * referenced record.
   */
  references?: string;
  /**
   * With `references`: the referenced record must also have this field's value, a field both
   * resources declare (`branchId: { references: 'branch', within: 'businessPartnerId' }`: a contact's
   * branch is a branch of the contact's partner). The foreign key then spans
   * (crProcessId, within, field) → (crProcessId, within, id); an empty field is not checked, and
   * when `within` is optional a check refuses the field without it (a city without its country).
   */
  within?: string;
  /**
   * With `references`: the referenced resource is another service's, whose table lies in that
   * service's schema of the same database (business-partner's `countryId` names core's country).
   * The foreign key crosses the schemas, so this service's migration needs that service's
   * migrations applied first (docs/adr/0066-every-id-field-is-a-reference.md).
   */
  referencesService?: ServiceName;
  /** A reference to a record of any tenant by a globally unique key of it (a userCode), kept by a foreign key. */
  referencesKey?: KeyReference;
  /**
   * Why a reference (`references` or `referencesKey`) gives no related list on the referenced
   * record's page. Without it, the target's page lists this resource's records filtered by the field
   * (gateway/src/console/manifest.ts; test/related-lists.test.ts walks the registry).
   */
  noRelatedList?: string;
  /**
   * Why a field that names a record (`...Id`) has no foreign key: audit rows outlive the file they
   * name, `entityId` names a record of any type. Every `...Id` field declares `references` or this
   * (test/reference-keys.test.ts walks the registry).
   */
  notReference?: string;
  /**
   * With `notReference`: the field holds the id of a record of whichever resource another field of
   * the record names by its path (dms-file's `entityId`, by `entityType`: `business-partner`). Every
   * record page then lists this resource's records naming it, as for a `references` field.
   */
  recordOf?: string;
}

/**
 * `{ resource: 'user-info', key: 'userCode', unknown: 'user.unknown' }`: the field holds the
 * target's `key` (unique across tenants); a value that names no record is 400 SVC-SYS-2001 with the
 * message `unknown` (default `field.reference`).
 */
export interface KeyReference {
  resource: string;
  key: string;
  unknown?: MessageKey;
  /**
   * Where a picker finds the records a write may name, when not the target's list in the tenant:
   * `tenant-members`, the users with a select for the tenant wherever their user-info is kept
   * (GET /api/user-info/tenant-members; docs/adr/0125-a-tenant-finds-its-members-not-others.md).
   */
  candidates?: 'tenant-members';
}

/** A list of small objects, written and read by the resource's own hooks (user-process selects). */
export interface ObjectListField {
  kind: 'objects';
  /** What the list holds: its proto comment. */
  doc?: string;
  /** The proto message of an item (`UserProcessSelect`), hand-written beside the record message. */
  message: string;
  required?: boolean;
  /** Fields of each item that a client may send. */
  of: Record<string, ScalarField>;
}

/**
 * A list of strings (a webhook subscription's eventTypes): proto `repeated string`, written and read by
 * the resource's hooks, which keep it where they choose; neither sorted nor filtered by.
 */
export interface StringListField {
  kind: 'strings';
  /** What the list holds: its proto comment. */
  doc?: string;
  required?: boolean;
  /** Most items. */
  maxItems?: number;
  /** Longest item. */
  maxLength?: number;
}

export type FieldSpec = ScalarField | ObjectListField | StringListField;

/**
 * Which operations of the CRUD set a resource offers (docs/interface.md#entities). `no-create`: get,
 * list, update and delete, no create and no stats (dms-file: its records are made by the upload).
 */
export type OperationSet = 'full' | 'no-stats' | 'no-create' | 'read-only';

export type Operation = 'get' | 'create' | 'update' | 'delete' | 'list' | 'stats';

export type ServiceName = 'core' | 'bpm' | 'dms';

/** The areas of the console's menu, in the order it shows them. */
export const CONSOLE_AREAS = ['overview', 'partners', 'contracts', 'documents', 'administration', 'operations'] as const;
export type ConsoleArea = (typeof CONSOLE_AREAS)[number];

/** A resource's entry in the console's menu: the area it is listed under; it reads as the resource's plural label. */
export interface ConsoleMenuArea {
  area: ConsoleArea;
}

/**
 * One declaration per entity: the REST path segment, the proto message and service, the fields
 * and the CRUD set. `libs/crud` turns it into gRPC handlers (service side), REST routes (gateway
 * side) and a MikroORM entity.
 *
 * Declared with `defineResource`, against the proto message.
 */
export interface Resource<
  Fields extends Record<string, FieldSpec> = Record<string, FieldSpec>,
  Message extends object = object,
  Columns extends Record<string, ScalarField> = Record<string, ScalarField>,
> {
  /** The proto message the resource travels as: a type only, for typed hooks (never set at run time). */
  readonly message?: Message;
  /** REST path segment, also the role prefix (`branch:read`). */
  path: string;
  /** Proto message name; RPCs are `Get<name>`, `Create<name>`, ..., `List<plural>`, `Get<name>Stats`. */
  name: string;
  plural: string;
  service: ServiceName;
  /**
   * The resource's entry in the console's menu; null when it has none: its records are reached from
   * other records' pages, or an extension's page stands in its place (dms-file: the documents page).
   */
  menu: ConsoleMenuArea | null;
  /** The generated grpc-js service definition. */
  grpc: ServiceDefinition;
  /** The generated message itself (`Branch`): the service encodes its get, create and update answers with it (grpc/answer-writer.ts). */
  encoder: MessageEncoder<Message>;
  operations: OperationSet;
  /** The path key when it is not `id` (account: `accountNo`). */
  key?: string;
  /** Database table; the path with `_` for `-` when omitted. */
  table?: string;
  fields: Fields;
  /** Columns of the service's own (user-info's tokenVersion): neither accepted nor returned by the API, nor in the proto. */
  columns?: Columns;
  /**
   * Rows are only ever inserted (an audit log): a trigger of the table refuses UPDATE and DELETE,
   * whoever connects. Declared here, so that the migration diff writes and keeps it.
   */
  appendOnly?: true;
  /** Composite unique keys within a tenant, e.g. `[['businessPartnerId', 'branchCode']]`. */
  uniques?: readonly (readonly string[])[];
  /**
   * A boolean field that marks a record deleted: delete sets it instead of removing the row, and a
   * record so marked is not found by get, update, delete or list (dms-file's `deleted`).
   */
  softDelete?: string;
  /**
   * Indexes that serve the resource's lists, each within a tenant: `['partnerName', 'id']` is a
   * btree over (cr_process_id, partner_name, id), so a page sorted by the name is read in index
   * order and a deep page's keys are counted off the index alone (list-page.ts).
   */
  listIndexes?: readonly (readonly string[])[];
  /**
   * `searchTerm` (a substring, `~*` with the I folded: crud/search-term.ts) is served by a pg_trgm GIN index over each
   * searchable field, instead of reading every row of the tenant.
   */
  searchIndex?: true;
  /**
   * Indexes of the service's own work beyond the lists (a queue's partial index of its due rows), as
   * raw DDL over the resource's table: the migration diff matches them by name.
   */
  workIndexes?: readonly { name: string; expression: string }[];
  /**
   * The number of rows per tenant is kept in `<table>_count` by statement triggers of the table
   * (tenant-count.ts), in the writing transaction: an unfiltered list reads its exact
   * totalElements there instead of counting the tenant's rows. Not with `softDelete`.
   */
  tenantCount?: true;
  /**
   * Proto comments of the CRUD set that say more than the standard ones (scripts/proto-resources.ts):
   * of an operation's RPC, or of a common field (dms-file's id is generated on upload).
   */
  protoDocs?: { rpcs?: Partial<Record<Operation, string>>; fields?: Partial<Record<CommonName, string>> };
  /** The sections of its forms and record page (form.ts); every writable field in one of them. */
  form?: ResourceForm<NoInfer<Extract<keyof Fields, string>> | CommonName>;
  /**
   * What people read, in every language (labels.ts): the entity's names, each field's label, each
   * enum value's label and help where it says more than the label. Typed against the fields, so a
   * field or an enum value without its label is a compile error; the console, the menu and the API
   * document take their words from here.
   */
  labels: NoInfer<ResourceLabels<Fields>>;
  /** The list's default columns, its primary filters, text matches and money fields (list-view.ts). */
  list?: ListView<(keyof Fields & string) | CommonName, FieldsOfKind<Fields, 'string' | 'text'>, FieldsOfKind<Fields, 'decimal'>>;
}

type CommonName = keyof typeof COMMON_FIELDS;

/** The kinds that fit a proto field, by the TypeScript type ts-proto gives it. */
type KindFor<T> = [NonNullable<T>] extends [number]
  ? 'long' | 'int'
  : [NonNullable<T>] extends [boolean]
    ? 'boolean'
    : [NonNullable<T>] extends [string]
      ? 'string' | 'text' | 'enum' | 'decimal' | 'date' | 'datetime'
      : [NonNullable<T>] extends [readonly string[]]
        ? 'strings'
        : [NonNullable<T>] extends [readonly object[]]
          ? 'objects'
          : never;

type SpecFor<T> = KindFor<T> extends 'objects' ? ObjectListField : KindFor<T> extends 'strings' ? StringListField : ScalarField & { kind: KindFor<T> };

/**
 * The field declarations a proto message `M` calls for: one for each of its fields but the common
 * ones (which may be declared again, to narrow them: account's crProcessId is globally unique),
 * each of a kind that fits the field's type and with the `doc` its proto comment is written from. A
 * field of the message left out, one of a kind its type cannot carry, or one without a doc is a
 * compile error.
 */
export type FieldsOf<M> = { [K in Exclude<keyof M, CommonName>]-?: SpecFor<M[K]> & { doc: string } } & {
  [K in Extract<keyof M, CommonName>]?: SpecFor<M[K]>;
};

/** The common fields `M` lacks (every record message carries them all, docs/interface.md#records). */
type MissingCommon<M> = Exclude<CommonName, keyof M>;

/**
 * Declares a resource against its generated proto message, whose fields are written from this
 * declaration (scripts/proto-resources.ts, run by `npm run proto:gen`), so that the two cannot drift
 * apart: `npm run typecheck` fails when the declaration misses a field of the message, declares one
 * the message does not have (it would be dropped by the encoder: proto:gen has not run), gives a
 * field a kind its proto type cannot carry or no doc, or the message lacks a common field. (int32
 * against int64 and the like, which TypeScript sees alike, are compared by test/contract.test.ts.)
 * The path and the CRUD set stay literal types, so that what follows from them (the event types of
 * the catalogue, libs/contracts/src/events.ts) is known to the compiler.
 *
 * @example
 * export const branch = defineResource<Branch>()({
 *   path: 'branch', name: 'Branch', plural: 'Branches', service: 'bpm', grpc: BranchServiceService, encoder: Branch,
 *   operations: 'full',
 *   fields: { businessPartnerId: { kind: 'long', required: true, references: 'business-partner', doc: 'The business partner (same tenant).' }, ... },
 *   labels: {
 *     en: { one: 'Branch', other: 'Branches', fields: { businessPartnerId: 'Business partner', ... } },
 *     tr: { one: 'Şube', other: 'Şubeler', fields: { businessPartnerId: 'İş ortağı', ... } },
 *   },
 * });
 */
export function defineResource<M extends object>() {
  return <
    const Fields extends FieldsOf<M>,
    const Path extends string,
    const Name extends string,
    const Plural extends string,
    const Operations extends OperationSet,
    const Columns extends Record<string, ScalarField> = Record<never, ScalarField>,
  >(
    resource: Resource<Fields, M, Columns> & {
      fields: Fields & Record<Exclude<keyof Fields, keyof FieldsOf<M>>, never>;
      path: Path;
      name: Name;
      plural: Plural;
      operations: Operations;
      grpc: CrudMethodsOf<M, Name, Plural, Operations>;
    } & ([MissingCommon<M>] extends [never] ? unknown : { messageLacksCommonFields: MissingCommon<M> }),
  ): Resource<Fields, M, Columns> & { readonly path: Path; readonly operations: Operations } => resource;
}

/**
 * What a resource's `grpc` must hold for its CRUD set: each RPC the set offers, by ts-proto's
 * lowerCamel name (`getBranch`, `listBranches`, `getBranchStats`), get, create and update answering
 * the record message `M`. A declaration whose service lacks one, or answers another message, is a
 * compile error; `crudMethods` (crud-methods.ts) then finds them by the same names.
 */
export type CrudMethodsOf<M, Name extends string, Plural extends string, Operations extends OperationSet> = {
  [
    K in `get${Name}` | (Operations extends 'read-only' ? never : `update${Name}`) | (Operations extends 'full' | 'no-stats' ? `create${Name}` : never)
  ]: CalledMethod<M>;
} & {
  [
    K in `list${Plural}` | (Operations extends 'read-only' ? never : `delete${Name}`) | (Operations extends 'full' ? `get${Name}Stats` : never)
  ]: CalledMethod<unknown>;
};

/** What a caller uses of a generated method: its path, how its request is written and its answer read. */
type CalledMethod<Res> = Pick<MethodDefinition<never, Res>, 'path' | 'requestSerialize' | 'responseDeserialize'>;

/** What a generated message offers for writing it: `encode(message, writer)` (ts-proto's MessageFns). */
export interface MessageEncoder<M> {
  encode(message: M, writer?: BinaryWriter): BinaryWriter;
}

/** The common record fields every resource has (docs/interface.md#records). */
export const COMMON_FIELDS = {
  id: { kind: 'long', readOnly: true },
  version: { kind: 'int', readOnly: true },
  crProcessId: { kind: 'long', required: true, immutable: true },
  status: { kind: 'boolean', default: true },
  createdAt: { kind: 'datetime', readOnly: true },
  updatedAt: { kind: 'datetime', readOnly: true },
  createdBy: { kind: 'string', readOnly: true },
  updatedBy: { kind: 'string', readOnly: true },
} as const satisfies Record<string, ScalarField>;

export const RANGE_KINDS: ReadonlySet<FieldKind> = new Set(['long', 'int', 'decimal', 'date', 'datetime']);

export function isScalar(spec: FieldSpec): spec is ScalarField {
  return spec.kind !== 'objects' && spec.kind !== 'strings';
}

/** Computes a value once per resource (field lists are asked on every request). */
function perResource<T>(compute: (resource: Resource) => T): (resource: Resource) => T {
  const cache = new WeakMap<Resource, T>();
  return (resource) => {
    let value = cache.get(resource);
    if (value === undefined) {
      value = compute(resource);
      cache.set(resource, value);
    }
    return value;
  };
}

/** Fields the API knows (the proto message's), common ones first, in the order records are shown. */
export const apiFields = perResource((resource): Readonly<Record<string, FieldSpec>> => ({ ...COMMON_FIELDS, ...resource.fields }));

/** Every column of a resource: the API's fields and the service's own columns. */
export const allFields = perResource((resource): Readonly<Record<string, FieldSpec>> => ({ ...apiFields(resource), ...resource.columns }));

/** Scalar fields a row holds and shows (not write-only, not computed): the ones a client may sort and filter by. */
export const visibleScalars = perResource((resource): readonly [string, ScalarField][] =>
  Object.entries(apiFields(resource)).filter((entry): entry is [string, ScalarField] => isScalar(entry[1]) && !entry[1].writeOnly && !entry[1].computed),
);

export function offers(resource: Resource, operation: Operation): boolean {
  switch (resource.operations) {
    case 'full':
      return true;
    case 'no-stats':
      return operation !== 'stats';
    case 'no-create':
      return operation !== 'stats' && operation !== 'create';
    case 'read-only':
      return operation === 'get' || operation === 'list';
  }
}

export function tableOf(resource: Resource): string {
  return resource.table ?? resource.path.replace(/-/g, '_');
}

const lowerFirst = (s: string): string => s.charAt(0).toLowerCase() + s.slice(1);

/** The grpc-js method names (ts-proto's lowerCamel) of each operation. */
export function methodNames(resource: Resource): Record<Operation, string> {
  return {
    get: lowerFirst(`Get${resource.name}`),
    create: lowerFirst(`Create${resource.name}`),
    update: lowerFirst(`Update${resource.name}`),
    delete: lowerFirst(`Delete${resource.name}`),
    list: lowerFirst(`List${resource.plural}`),
    stats: lowerFirst(`Get${resource.name}Stats`),
  };
}

/** The proto field of Create/Update requests that holds the record (`business_partner` → `businessPartner`). */
export function recordFieldOf(resource: Resource): string {
  return lowerFirst(resource.name);
}

/** The key field of the resource: `id` or the declared key. */
export function keyOf(resource: Resource): string {
  return resource.key ?? 'id';
}
