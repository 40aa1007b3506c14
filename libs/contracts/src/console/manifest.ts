/**
 * What the console knows of the resources it shows, served by the gateway at
 * GET /console/resources.json and derived there from the registry (gateway/src/console/manifest.ts),
 * so that a new resource appears in the console without console code. Types only: the console's
 * bundle imports this file, so it must not import anything that runs.
 */

import type { Language, Texts } from '@platform/kit/resource/labels.ts';
import type { ConsoleArea } from '@platform/kit/resource/resource.ts';
import type { FormSection } from '@platform/kit/resource/form.ts';
import type { TextMatch } from '@platform/kit/resource/list-view.ts';

/** The console's menu areas, and the languages people read it in (libs/kit/src/resource/). */
export type { ConsoleArea, Language, Texts };

/** A menu entry: the area its resource declares, named as the resource's plural label. */
export interface ConsoleMenuEntry {
  area: ConsoleArea;
  label: Texts;
}

/** A titled group of fields of a form and a record page, as the resource declares it (libs/kit/src/resource/form.ts). */
export type ConsoleFormSection = FormSection;

/** A field kind of the registry (libs/kit/src/resource/resource.ts), as the console renders and edits it. */
export type ConsoleFieldKind = 'string' | 'text' | 'long' | 'int' | 'boolean' | 'decimal' | 'date' | 'datetime' | 'enum' | 'strings' | 'objects';

export interface ConsoleField {
  name: string;
  kind: ConsoleFieldKind;
  /** What people read for it, from the resource's catalogue (`labels` of its declaration). */
  label: Texts;
  /** Help for the person filling it in, where the catalogue has more to say than the label. */
  help?: Texts;
  /** Required on create. */
  required?: boolean;
  /** Returned, never written (ids, versions, audit stamps, computed values). */
  readOnly?: boolean;
  /** Written, never returned (passwords). */
  writeOnly?: boolean;
  /** Set on create, not changed by an update. */
  immutable?: boolean;
  /** Shown to its owner once (a signing secret): never in a list column. */
  secret?: boolean;
  values?: readonly string[];
  /** The label of each of `values`. */
  valueLabels?: Readonly<Record<string, Texts>>;
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: string;
  default?: string | number | boolean;
  /**
   * A record of another resource, named by `key` of it (`id`, or `userCode` of user-info); a picker
   * offers the target's list in the tenant, or the `candidates` the declaration names.
   */
  references?: { resource: string; key: string; candidates?: 'tenant-members' };
  /** May be sorted by and filtered on (by equality; numbers, dates and times also by `<field>From`/`<field>To`). */
  sortable: boolean;
  /** Range filters `<field>From` / `<field>To` apply. */
  range: boolean;
  /** Matched by the list's searchTerm. */
  searchable?: boolean;
  /** The item fields of an `objects` field. */
  of?: readonly ConsoleField[];
  /** A text field's filter also matches by prefix (`<field>Prefix`) or containment (`<field>Contains`); the console's text filter uses it. */
  match?: TextMatch;
  /** A decimal that is money: the field of the same record holding its ISO 4217 currency code. */
  currencyField?: string;
  /** A filter through a reference (ConsoleResource's `through`): the reference of the record it goes through. */
  through?: string;
}

export interface ConsoleResource {
  /** REST path segment and role prefix: `branch` (`/api/branch`, `branch:read`). */
  path: string;
  name: string;
  plural: string;
  /** What people call one record and several ("Business partner", "Business partners"). */
  labels: { one: Texts; other: Texts };
  /** Its menu entry: the area it declares, named as `labels.other`; null for none. */
  menu: ConsoleMenuEntry | null;
  /** The field that names a record in its paths: `id`, or `accountNo` for an account. */
  key: string;
  /** The field that names a record where another one references it (a picker's label). */
  display: string;
  operations: { get: boolean; create: boolean; update: boolean; delete: boolean; list: boolean; stats: boolean };
  /** Every field the API knows, common ones first, in the order records are shown. */
  fields: readonly ConsoleField[];
  /** The records that refer to this one, each a short list on its page: one per reference field of the registry. */
  related: readonly ConsoleRelated[];
  /** The declared sections of its forms and record page, in order; empty when it declares none. */
  sections: readonly ConsoleFormSection[];
  /** The list's declared default columns, in order (the resource's `list.columns`); a user may choose others. */
  columns: readonly string[];
  /** The filters a list shows at once (`list.filters`); the other filterable fields are behind "more filters". */
  filters: readonly string[];
  /**
   * The list's filters through a reference (`list.through`): not fields of its records, each named
   * and checked as the referenced record's field of its name (an accrual's `businessPartnerId`, as
   * its contract's), with `through` the reference it goes through.
   */
  through: readonly ConsoleField[];
}

/**
 * Records of `resource` whose `field` holds this record's `key` (a partner's branches: resource
 * `branch`, field `businessPartnerId`, key `id`), listed by `POST /api/{resource}/list` with the
 * filter `{ crProcessId, [field]: record[key] }` (and `[type.field]: type.value` with a type); with
 * `through`, `field` is the list's filter through that reference (a partner's accruals).
 */
export interface ConsoleRelated {
  resource: string;
  field: string;
  key: string;
  /** A further field the list is filtered by: the type field of a field that names a record of any resource (a file's `entityType`, this resource's path). */
  type?: { field: string; value: string };
  /**
   * `field` is a filter through this reference of the listed records, not a field of theirs (a
   * partner's accruals, through their contractId): nothing names this record on their form, so the
   * list offers no "new" (docs/adr/0141-a-list-filters-through-a-reference.md).
   */
  through?: string;
}

export interface ConsoleManifest {
  resources: readonly ConsoleResource[];
  /** What the login page needs: the reCAPTCHA v3 site key when the platform checks captchas (RECAPTCHA_SITE_KEY). */
  login: { captchaSiteKey?: string };
}
