/**
 * The document service's calls the console makes (docs/interface.md "Files", "Share links",
 * "Retention and audit"; libs/contracts/src/dms/**), typed by what they answer, so the pages read
 * records rather than untyped JSON. Every call goes through the typed client (shell/api.ts: cookie,
 * language, CSRF), whose paths, bodies and answers are the API document's (libs/client/src/schema.d.ts),
 * so a change of the document changes them.
 */
import type {
  components,
  DmsAuditLogPageRequest,
  DmsCategoryPageRequest,
  DmsFilePageRequest,
  DmsShareLinkCreate,
  DmsShareLinkPageRequest,
  operations,
} from '@platform/client/schema.d.ts';
import { answer, platform } from '../../shell/api.ts';
import { offsetPage } from '../../shell/offset-page.ts';
import type { Page } from '../../shell/console-paths.ts';

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

/** A list's page, search and order; `filter` is the entity's filter as the document gives it, but the tenant (the page's). */
export interface ListQuery<Filter> {
  page?: number;
  size?: number;
  searchTerm?: string;
  filter?: Omit<Filter, 'crProcessId'>;
  sorts?: { field: string; direction: 'ASC' | 'DESC' }[];
}

/** The PageRequest of a list for the tenant, newest first unless told. */
function pageRequest<Filter>(crProcessId: number, query: ListQuery<Filter>) {
  return {
    page: query.page ?? 0,
    size: query.size ?? 20,
    searchTerm: query.searchTerm || undefined,
    sorts: query.sorts ?? [{ field: 'id', direction: 'DESC' }],
    filter: { ...query.filter, crProcessId },
  };
}

/** POST /api/dms-category/list for the tenant. */
export function listCategories(crProcessId: number, query: ListQuery<DmsCategoryPageRequest['filter']>, signal?: AbortSignal) {
  return answer(platform.POST('/api/dms-category/list', { body: pageRequest(crProcessId, query), signal }));
}

/** POST /api/dms-file/list for the tenant. */
export async function listFiles(crProcessId: number, query: ListQuery<DmsFilePageRequest['filter']>, signal?: AbortSignal) {
  return offsetPage(await answer(platform.POST('/api/dms-file/list', { body: pageRequest(crProcessId, query), signal })));
}

/** POST /api/dms-share-link/list for the tenant; the links as DmsShareLink says why. */
export async function listShareLinks(crProcessId: number, query: ListQuery<DmsShareLinkPageRequest['filter']>, signal?: AbortSignal) {
  return (await answer(platform.POST('/api/dms-share-link/list', { body: pageRequest(crProcessId, query), signal }))) as Page<DmsShareLink>;
}

/** POST /api/dms-audit-log/list for the tenant. */
export async function listAuditLog(crProcessId: number, query: ListQuery<DmsAuditLogPageRequest['filter']>, signal?: AbortSignal) {
  return offsetPage(await answer(platform.POST('/api/dms-audit-log/list', { body: pageRequest(crProcessId, query), signal })));
}

/** Every category of the tenant (pages of 500 until the last): the tree needs them all. */
export async function allCategories(crProcessId: number, signal?: AbortSignal): Promise<DmsCategory[]> {
  const all: DmsCategory[] = [];
  for (let page = 0; ; page++) {
    const answer = await listCategories(crProcessId, { page, size: 500, sorts: [{ field: 'categoryName', direction: 'ASC' }] }, signal);
    all.push(...answer.content);
    if (answer.last || answer.empty) return all;
  }
}

export function createCategory(crProcessId: number, categoryName: string, parentId: number | undefined): Promise<DmsCategory> {
  return answer(
    platform.POST('/api/dms-category', {
      body: { crProcessId, categoryName, ...(parentId === undefined ? {} : { parentId }) },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
    }),
  );
}

export function getFile(id: number, signal?: AbortSignal): Promise<DmsFile> {
  return answer(platform.GET('/api/dms-file/{key}', { params: { path: { key: id } }, signal }));
}

/** A signed URL for the file's bytes: `inline` for a preview (types safe to show), else an attachment. */
export function downloadUrl(id: number, inline: boolean, signal?: AbortSignal) {
  return answer(platform.GET('/api/dms-file/{id}/download-url', { params: { path: { id }, query: { inline: String(inline) } }, signal }));
}

export function moveFile(id: number, categoryId: number): Promise<DmsFile> {
  return answer(platform.PUT('/api/dms-file/{id}/category', { params: { path: { id }, query: { categoryId } } }));
}

/** A legal hold is the file's `legalHold` field, written by an update (a merge: only it and the version). */
export function setLegalHold(file: DmsFile, legalHold: boolean): Promise<DmsFile> {
  return answer(
    platform.PUT('/api/dms-file/{key}', { params: { path: { key: file.id } }, body: { legalHold }, headers: { 'If-Match': `W/"${file.version}"` } }),
  );
}

export function deleteFile(file: DmsFile): Promise<void> {
  return answer(platform.DELETE('/api/dms-file/{key}', { params: { path: { key: file.id } }, headers: { 'If-Match': `W/"${file.version}"` } }));
}

export function deleteShareLink(link: DmsShareLink): Promise<void> {
  return answer(platform.DELETE('/api/dms-share-link/{key}', { params: { path: { key: link.id } }, headers: { 'If-Match': `W/"${link.version}"` } }));
}

/** What the new-link form sets: the rest of the create body (tenant, file) comes from the page. */
export type NewShareLink = Pick<DmsShareLinkCreate, 'password' | 'expiresAt' | 'maxDownloads'>;

export async function createShareLink(crProcessId: number, fileId: number, link: NewShareLink): Promise<DmsShareLink> {
  const created = await answer(
    platform.POST('/api/dms-share-link', { body: { crProcessId, fileId, ...link }, headers: { 'Idempotency-Key': crypto.randomUUID() } }),
  );
  return created as DmsShareLink;
}

export async function setShareLinkActive(link: DmsShareLink, status: boolean): Promise<DmsShareLink> {
  const updated = await answer(
    platform.PUT('/api/dms-share-link/{key}', { params: { path: { key: link.id } }, body: { status }, headers: { 'If-Match': `W/"${link.version}"` } }),
  );
  return updated as DmsShareLink;
}

export function retentionDryRun(policyId: number): Promise<DryRun> {
  return answer(platform.GET('/api/dms-retention-policy/{id}/dry-run', { params: { path: { id: policyId } } }));
}

export function verifyAuditChain(crProcessId: number): Promise<ChainCheck> {
  return answer(platform.GET('/api/dms-audit-log/verify', { params: { query: { crProcessId } } }));
}

/**
 * Where a share link's recipient goes: the console's public page for its token, which asks for a
 * password when the link has one and names the file (docs/adr/0084-the-console-s-security-page-policy.md); the
 * link's own `url` is the API path that streams the bytes.
 */
export function sharePageUrl(token: string): string {
  return `${location.origin}/console/share/${encodeURIComponent(token)}`;
}

/** A file's text and the state of its reading (GET /api/dms-file/{id}/text). */
export type FileText = operations['fileText']['responses'][200]['content']['application/json'];

/** What the document search is narrowed by, beside its words (GET /api/dms-file/search). */
export type FileSearch = Omit<NonNullable<operations['searchFiles']['parameters']['query']>, 'crProcessId'>;

/**
 * The tenant's files found by `search` (their words, or their name, description or tags), best first,
 * at most 500: file records, each found by its text with its `searchRank` and `searchSnippet`.
 */
export function searchFiles(crProcessId: number, search: FileSearch, signal?: AbortSignal): Promise<DmsFile[]> {
  return answer(platform.GET('/api/dms-file/search', { params: { query: { ...search, crProcessId } }, signal }));
}

export function fileText(id: number, signal?: AbortSignal): Promise<FileText> {
  return answer(platform.GET('/api/dms-file/{id}/text', { params: { path: { id } }, signal }));
}

/** Reads the file's words again (dms-file:write): its text row, PENDING; 409 SVC-SYS-4004 while it is being read. */
export function extractFileText(id: number): Promise<FileText> {
  return answer(platform.POST('/api/dms-file/{id}/text/extract', { params: { path: { id } } }));
}
