import type { MethodDefinition, ServiceDefinition } from '@grpc/grpc-js';
import type { BinaryWriter } from '@bufbuild/protobuf/wire';
import { COMMON_FIELDS, isScalar, type FieldSpec, type ObjectListField, type ScalarField, type ServiceName, type StringListField } from './fields.ts';
import type { ResourceForm } from './form.ts';
import type { ResourceLabels } from './labels.ts';
import type { FieldsOfKind, ListView } from './list-view.ts';

export type { FieldKind, FieldSpec, KeyReference, ObjectListField, ScalarField, ServiceName, StringListField } from './fields.ts';
export { COMMON_FIELDS, isScalar, RANGE_KINDS } from './fields.ts';

/**
 * Which operations of the CRUD set a resource offers (docs/interface.md#entities). `no-create`: get,
 * list, update and delete, no create and no stats (dms-file: its records are made by the upload).
 */
export type OperationSet = 'full' | 'no-stats' | 'no-create' | 'read-only';

export type Operation = 'get' | 'create' | 'update' | 'delete' | 'list' | 'stats';

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
  Through extends string = string,
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
  /** The list's default columns, its primary filters, text matches, money fields and filters through a reference (list-view.ts). */
  list?: ListView<
    (keyof Fields & string) | CommonName,
    FieldsOfKind<Fields, 'string' | 'text'>,
    FieldsOfKind<Fields, 'decimal'>,
    ReferenceFields<Fields>,
    Through
  >;
}

type CommonName = keyof typeof COMMON_FIELDS;

/** The names of `Fields` that reference a record of the same tenant by its id (`references`); any name for fields not known. */
type ReferenceFields<Fields> = string extends keyof Fields
  ? string
  : { [K in keyof Fields]: Fields[K] extends { references: string } ? K : never }[keyof Fields] & string;

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
    const Through extends string = never,
  >(
    resource: Resource<Fields, M, Columns, Through> & {
      fields: Fields & Record<Exclude<keyof Fields, keyof FieldsOf<M>>, never>;
      path: Path;
      name: Name;
      plural: Plural;
      operations: Operations;
      grpc: CrudMethodsOf<M, Name, Plural, Operations>;
    } & ([MissingCommon<M>] extends [never] ? unknown : { messageLacksCommonFields: MissingCommon<M> }),
  ): Resource<Fields, M, Columns, Through> & { readonly path: Path; readonly operations: Operations } => resource;
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
