/**
 * Refine's data provider over the platform's CRUD set (docs/interface.md#crud, #lists): a list is
 * `POST /api/{path}/list` with a PageRequest, a record `GET|PUT|DELETE /api/{path}/{key}`. Refine's
 * filters map to the PageRequest's filter: `eq` to equality, `gte`/`lte` to `<field>From`/`<field>To`,
 * `startswith`/`contains` to `<field>Prefix`/`<field>Contains`, and the pseudo-field SEARCH_FIELD to `searchTerm`. An update carries `If-Match: W/"<version>"`.
 */
import type { CrudFilter, DataProvider } from '@refinedev/core';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { answer, platform } from '../shell/api.ts';
import { offsetPage } from '../shell/offset-page.ts';
import type { PageRequest, Row } from '../shell/console-paths.ts';
import { backgroundQueue } from '../shell/background-queue.ts';
import { loadManifest } from './manifest.tsx';

/** Reference names: two reads at a time, leaving the browser's other connections to what the user asked for. */
const inBackground = backgroundQueue(2);

/** The filter field that stands for the list's searchTerm. */
export const SEARCH_FIELD = '$searchTerm';

/**
 * A filter's value as the API takes it: filters read back from the address (a reload, a related
 * list's link to its full list) hold every value as text, and a number or yes/no field wants its type.
 */
function typed(field: ConsoleField | undefined, value: unknown): unknown {
  if (typeof value !== 'string' || !field) return value;
  if ((field.kind === 'long' || field.kind === 'int') && /^-?\d+$/.test(value)) return Number(value);
  if (field.kind === 'boolean') return value === 'true';
  return value;
}

/** The PageRequest's searchTerm and filter of Refine's filters, typed by the resource's `fields`; empty values are no filter. */
export function pageFilter(filters: readonly CrudFilter[], fields: readonly ConsoleField[] = []): Pick<PageRequest, 'searchTerm' | 'filter'> {
  const filter: Record<string, unknown> = {};
  let searchTerm: string | undefined;
  for (const each of filters) {
    if (!('field' in each) || each.value === undefined || each.value === null || each.value === '') continue;
    const value = typed(
      fields.find((field) => field.name === each.field),
      each.value,
    );
    if (each.field === SEARCH_FIELD) searchTerm = String(each.value);
    else if (each.operator === 'gte') filter[`${each.field}From`] = value;
    else if (each.operator === 'lte') filter[`${each.field}To`] = value;
    else if (each.operator === 'eq') filter[each.field] = value;
    else if (each.operator === 'startswith') filter[`${each.field}Prefix`] = String(each.value);
    else if (each.operator === 'contains') filter[`${each.field}Contains`] = String(each.value);
  }
  return { searchTerm, filter };
}

/** Refine's data calls as the platform's CRUD set: one provider for every resource. */
export const dataProvider: DataProvider = {
  getApiUrl: () => '/api',

  getList: async ({ resource, pagination, sorters, filters }) => {
    const found = (await loadManifest()).resources.find((each) => each.path === resource);
    // its filters through a reference are typed as the fields they stand for
    const { searchTerm, filter } = pageFilter(filters ?? [], found && [...found.fields, ...found.through]);
    const request: PageRequest = {
      page: (pagination?.currentPage ?? 1) - 1,
      size: pagination?.pageSize ?? 20,
      searchTerm,
      sorts: (sorters ?? []).map((sort) => ({ field: sort.field, direction: sort.order === 'desc' ? 'DESC' : 'ASC' })),
      filter,
    };
    const page = offsetPage(await answer(platform.POST('/api/{resource}/list', { params: { path: { resource } }, body: request })));
    return { data: page.content as never[], total: page.totalElements };
  },

  // `meta.background`: a read the page can wait for (a reference's name), two at a time
  getOne: async ({ resource, id, meta }) => {
    const read = () => answer(platform.GET('/api/{resource}/{key}', { params: { path: { resource, key: id } } }));
    return { data: (await (meta?.background === true ? inBackground(read) : read())) as never };
  },

  create: async ({ resource, variables }) => ({
    data: (await answer(platform.POST('/api/{resource}', { params: { path: { resource } }, body: variables as Row }))) as never,
  }),

  update: async ({ resource, id, variables }) => {
    const version = (variables as { version?: unknown }).version;
    const headers: Record<string, string> = typeof version === 'number' ? { 'If-Match': `W/"${version}"` } : {};
    return {
      data: (await answer(platform.PUT('/api/{resource}/{key}', { params: { path: { resource, key: id } }, body: variables as Row, headers }))) as never,
    };
  },

  deleteOne: async ({ resource, id }) => {
    await answer(platform.DELETE('/api/{resource}/{key}', { params: { path: { resource, key: id } } }));
    return { data: { id } as never };
  },
};
