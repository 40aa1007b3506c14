/**
 * What a resource's fields are: their kinds and the rules each declares, and the common fields every
 * record has. Apart from resource.ts so that what follows from the fields (labels.ts, list-view.ts,
 * form.ts) can read them without importing the resource's declaration, which reads those in turn.
 */
import type { MessageKey } from '../i18n/messages.ts';

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
  /**
   * Fields each item is read with besides `of`, which the service fills in and never reads from a
   * client (a user-process select's accountName): declared so that the label catalogue names them.
   */
  shown?: Record<string, ScalarField>;
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

export type ServiceName = 'core' | 'bpm' | 'dms';

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
