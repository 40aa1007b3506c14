/**
 * Which of a resource's fields (the manifest's) appear where: list columns, filters, the record
 * page, and the create and edit forms. The rules follow the field's flags, never its resource.
 */
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';

/** Shown to people: neither written-only (passwords) nor shown-once (secrets). */
export function isVisible(field: ConsoleField): boolean {
  return !field.writeOnly && !field.secret;
}

/** One value per record (not a list or rows). */
export function isScalar(field: ConsoleField): boolean {
  return field.kind !== 'objects' && field.kind !== 'strings';
}

/** The fields every record has (docs/interface.md#records), which the manifest lists first. */
const COMMON_FIELDS = new Set(['id', 'version', 'crProcessId', 'status', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/**
 * The columns a list may show (its column chooser's): visible scalar fields, the version aside (it names no fact of the record);
 * the key first, then the resource's own fields, then the common ones, so that what tells records
 * apart comes before their audit stamps.
 */
export function listColumns(resource: ConsoleResource): ConsoleField[] {
  const shown = resource.fields.filter((field) => isVisible(field) && isScalar(field) && field.name !== 'version');
  const rank = (field: ConsoleField) => (field.name === resource.key ? 0 : COMMON_FIELDS.has(field.name) ? 2 : 1);
  return shown
    .map((field, index) => ({ field, index }))
    .sort((a, b) => rank(a.field) - rank(b.field) || a.index - b.index)
    .map(({ field }) => field);
}

/**
 * The list's filters: the filterable visible scalars but the tenant (the tenant picker sets it),
 * then the filters through a reference (an accrual's business partner, through its contract).
 */
export function filterFields(resource: ConsoleResource): ConsoleField[] {
  return [...resource.fields.filter((field) => isVisible(field) && isScalar(field) && field.sortable && field.name !== 'crProcessId'), ...resource.through];
}

/** Fields of `names`, in that order, among `fields`. */
function named(fields: readonly ConsoleField[], names: readonly string[]): ConsoleField[] {
  return names.flatMap((name) => fields.filter((field) => field.name === name));
}

/** The columns a list shows until its user chooses others: the resource's declared `list.columns`. */
export function defaultColumns(resource: ConsoleResource): ConsoleField[] {
  return named(listColumns(resource), resource.columns);
}

/** The filters a list shows at once: the resource's declared `list.filters`. */
export function primaryFilters(resource: ConsoleResource): ConsoleField[] {
  return named(filterFields(resource), resource.filters);
}

/** The other filterable fields, behind "more filters": the resource's own first, then ids, versions and audit stamps. */
export function moreFilters(resource: ConsoleResource): ConsoleField[] {
  const rest = filterFields(resource).filter((field) => !resource.filters.includes(field.name));
  return [...rest.filter((field) => !COMMON_FIELDS.has(field.name)), ...rest.filter((field) => COMMON_FIELDS.has(field.name))];
}

/** What the record page shows: every visible field. */
export function detailFields(resource: ConsoleResource): ConsoleField[] {
  return resource.fields.filter(isVisible);
}

/** What a form may write: not read-only; the tenant is chosen apart (formFields leaves it out). */
export function formFields(resource: ConsoleResource): ConsoleField[] {
  return resource.fields.filter((field) => !field.readOnly && !field.secret && field.name !== 'crProcessId');
}

/** Whether a reference can be shown by its target's display field: the target is read by the same key. */
export function referenceTarget(field: ConsoleField, resources: readonly ConsoleResource[]): ConsoleResource | undefined {
  if (!field.references) return undefined;
  const target = resources.find((resource) => resource.path === field.references?.resource);
  return target && target.key === field.references.key && target.operations.get ? target : undefined;
}
