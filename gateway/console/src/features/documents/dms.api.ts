/**
 * The document service's calls the console makes (docs/interface.md "Files", "Share links",
 * "Retention and audit"; libs/contracts/src/dms/**), typed by what they answer, so the pages read
 * records rather than untyped JSON. Every call goes through shell/api.ts (cookie, language, CSRF).
 * The types follow from the typed client's schema (libs/client/src/schema.d.ts, generated from the
 * API document), so a change of the document changes them; the import is type-only, so none of the
 * client's code enters the bundle.
 */
import type { components, DmsFileDownloadUrl, DmsFilePage, DmsShareLinkCreate, operations } from '@platform/client/schema.d.ts';
import { api } from '../../shell/api.ts';

/** A PageResponse (docs/interface.md#lists): every list answers this shape, the API document names it once per entity. */
export type Page<T> = Omit<DmsFilePage, 'content'> & { content: T[] };

/** A category as the API document gives it: `parentId` is null for a top-level one. */
export type DmsCategory = components['schemas']['DmsCategory'];

/**
 * A file's record as the API document gives it. Its name, size, type and upload date are nullable
 * there (the columns are, and no create body requires them: only the upload makes a file), so the
 * pages show a file by `fileLabel` and leave out what is absent.
 */
export type DmsFile = components['schemas']['DmsFile'];

/**
 * A share link as the API document gives it, with `token`, `hasPassword` and `downloadCount`
 * required present: the service makes the token on create and never changes it (the link is
 * nothing but its token: libs/contracts/src/dms/dms-share-link.ts), and `has_password` and
 * `download_count` are NOT NULL columns (default false, 0). The document marks them nullable only
 * because every read-only field without `required` is.
 */
export type DmsShareLink = Present<components['schemas']['DmsShareLink'], 'token' | 'hasPassword' | 'downloadCount'>;

/** One row of the tenant's hash-chained audit log, as the API document gives it. */
export type DmsAuditLog = components['schemas']['DmsAuditLog'];

/** What a retention policy's dry run would act on (GET /api/dms-retention-policy/{id}/dry-run). */
export type DryRun = operations['retentionDryRun']['responses'][200]['content']['application/json'];

/** The tenant's audit chain, recomputed (GET /api/dms-audit-log/verify). */
export type ChainCheck = operations['verifyAuditLogs']['responses'][200]['content']['application/json'];

/** `T` with the fields `K` required and never null: where the console relies on them, said why at each use. */
type Present<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };

export interface ListQuery {
  page?: number;
  size?: number;
  searchTerm?: string;
  filter?: Record<string, string | number | boolean>;
  sorts?: { field: string; direction: 'ASC' | 'DESC' }[];
}

/** POST /api/{path}/list for the tenant, newest first unless told. */
export function listOf<T>(path: string, crProcessId: number, query: ListQuery = {}, signal?: AbortSignal): Promise<Page<T>> {
  const body = {
    page: query.page ?? 0,
    size: query.size ?? 20,
    searchTerm: query.searchTerm || undefined,
    sorts: query.sorts ?? [{ field: 'id', direction: 'DESC' }],
    filter: { ...query.filter, crProcessId },
  };
  return api<Page<T>>(`/api/${path}/list`, { body, signal });
}

/** Every category of the tenant (pages of 500 until the last): the tree needs them all. */
export async function allCategories(crProcessId: number, signal?: AbortSignal): Promise<DmsCategory[]> {
  const all: DmsCategory[] = [];
  for (let page = 0; ; page++) {
    const answer = await listOf<DmsCategory>('dms-category', crProcessId, { page, size: 500, sorts: [{ field: 'categoryName', direction: 'ASC' }] }, signal);
    all.push(...answer.content);
    if (answer.last || answer.empty) return all;
  }
}

export function createCategory(crProcessId: number, categoryName: string, parentId: number | undefined): Promise<DmsCategory> {
  return api<DmsCategory>('/api/dms-category', {
    body: { crProcessId, categoryName, ...(parentId === undefined ? {} : { parentId }) },
    headers: { 'Idempotency-Key': crypto.randomUUID() },
  });
}

export function getFile(id: number, signal?: AbortSignal): Promise<DmsFile> {
  return api<DmsFile>(`/api/dms-file/${id}`, { signal });
}

/** A signed URL for the file's bytes: `inline` for a preview (types safe to show), else an attachment. */
export function downloadUrl(id: number, inline: boolean, signal?: AbortSignal): Promise<DmsFileDownloadUrl> {
  return api(`/api/dms-file/${id}/download-url?inline=${inline}`, { signal });
}

export function moveFile(id: number, categoryId: number): Promise<DmsFile> {
  return api<DmsFile>(`/api/dms-file/${id}/category?categoryId=${categoryId}`, { method: 'PUT' });
}

/** A legal hold is the file's `legalHold` field, written by an update (a merge: only it and the version). */
export function setLegalHold(file: DmsFile, legalHold: boolean): Promise<DmsFile> {
  return api<DmsFile>(`/api/dms-file/${file.id}`, { method: 'PUT', body: { legalHold }, headers: { 'If-Match': `W/"${file.version}"` } });
}

export function deleteRecord(path: string, id: number, version?: number): Promise<void> {
  return api<void>(`/api/${path}/${id}`, { method: 'DELETE', headers: version === undefined ? {} : { 'If-Match': `W/"${version}"` } });
}

/** What the new-link form sets: the rest of the create body (tenant, file) comes from the page. */
export type NewShareLink = Pick<DmsShareLinkCreate, 'password' | 'expiresAt' | 'maxDownloads'>;

export function createShareLink(crProcessId: number, fileId: number, link: NewShareLink): Promise<DmsShareLink> {
  return api<DmsShareLink>('/api/dms-share-link', { body: { crProcessId, fileId, ...link }, headers: { 'Idempotency-Key': crypto.randomUUID() } });
}

export function setShareLinkActive(link: DmsShareLink, status: boolean): Promise<DmsShareLink> {
  return api<DmsShareLink>(`/api/dms-share-link/${link.id}`, { method: 'PUT', body: { status }, headers: { 'If-Match': `W/"${link.version}"` } });
}

export function retentionDryRun(policyId: number): Promise<DryRun> {
  return api<DryRun>(`/api/dms-retention-policy/${policyId}/dry-run`);
}

export function verifyAuditChain(crProcessId: number): Promise<ChainCheck> {
  return api<ChainCheck>(`/api/dms-audit-log/verify?crProcessId=${crProcessId}`);
}

/**
 * Where a share link's recipient goes: the console's public page for its token, which asks for a
 * password when the link has one and names the file (docs/adr/0084-the-console-s-security-page-policy.md); the
 * link's own `url` is the API path that streams the bytes.
 */
export function sharePageUrl(token: string): string {
  return `${location.origin}/console/share/${encodeURIComponent(token)}`;
}
