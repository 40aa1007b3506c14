/**
 * The calls the access sections make, through the typed client: every page of a filtered list, a
 * create, an update, a delete, and the tenant's members (GET /api/user-info/tenant-members).
 */
import { answer, platform } from '../../shell/api.ts';
import type { Row } from '../../shell/console-paths.ts';

/** The largest page a list serves (docs/interface.md#lists). */
const PAGE = 500;

/** Every record of `resource` matching `filter` (which names the tenant), a page of 500 at a time. */
export async function listAll(resource: string, filter: Record<string, unknown>, signal?: AbortSignal): Promise<Row[]> {
  const rows: Row[] = [];
  for (let page = 0; ; page++) {
    const answered = await answer(platform.POST('/api/{resource}/list', { params: { path: { resource } }, body: { page, size: PAGE, filter }, signal }));
    rows.push(...answered.content);
    if (answered.last || answered.content.length === 0) return rows;
  }
}

export function createRecord(resource: string, body: Row): Promise<Row> {
  return answer(platform.POST('/api/{resource}', { params: { path: { resource } }, body }));
}

export function updateRecord(resource: string, key: string | number, body: Row): Promise<Row> {
  return answer(platform.PUT('/api/{resource}/{key}', { params: { path: { resource, key } }, body }));
}

export async function deleteRecord(resource: string, key: string | number): Promise<void> {
  await answer(platform.DELETE('/api/{resource}/{key}', { params: { path: { resource, key } } }));
}

/** A tenant a user may work in: an entry of its user-process's userProcessSelects. */
export interface Select {
  accountNo: string;
  accountName: string;
  crProcessId: number;
}

export interface TenantMember {
  userCode: string;
  userDescription: string;
}

/** The users with a select for the tenant whose code or name holds `term` (docs/adr/0125-a-tenant-finds-its-members-not-others.md). */
export function tenantMembers(crProcessId: number, term: string, signal?: AbortSignal): Promise<TenantMember[]> {
  return answer(platform.GET('/api/user-info/tenant-members', { params: { query: { crProcessId, searchTerm: term || undefined } }, signal }));
}
