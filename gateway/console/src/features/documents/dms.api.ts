/**
 * The document service's calls the console makes (docs/interface.md "Files", "Share links",
 * "Retention and audit"; libs/contracts/src/dms/**), typed by what they answer, so the pages read
 * records rather than untyped JSON. Every call goes through shell/api.ts (cookie, language, CSRF).
 */
import { api } from '../../shell/api.ts';

/** A PageResponse (docs/interface.md#lists). */
export interface Page<T> {
  content: T[];
  page: number;
  size: number;
  totalElements: number;
  totalPages: number;
  first: boolean;
  last: boolean;
  empty: boolean;
}

interface Stamped {
  id: number;
  version: number;
  crProcessId: number;
  status: boolean;
  createdAt: string;
  updatedAt: string;
  createdBy?: string;
  updatedBy?: string;
}

export interface DmsCategory extends Stamped {
  categoryName: string;
  parentId?: number | null;
  description?: string | null;
}

export interface DmsFile extends Stamped {
  originalFileName: string;
  fileSize: number;
  mimeType: string;
  uploadDate: string;
  entityType?: string | null;
  entityId?: number | null;
  integrationKey?: string | null;
  categoryId?: number | null;
  description?: string | null;
  tags?: string | null;
  checksum?: string;
  legalHold: boolean;
}

export interface DmsShareLink extends Stamped {
  fileId: number;
  expiresAt?: string | null;
  hasPassword: boolean;
  maxDownloads?: number | null;
  token: string;
  url: string;
  downloadCount: number;
}

export interface DmsAuditLog {
  id: number;
  action: string;
  fileId?: number | null;
  shareLinkId?: number | null;
  userCode: string;
  ipAddress?: string | null;
  createdAt: string;
  details?: string | null;
}

export interface DryRun {
  policyId: number;
  action: 'SOFT_DELETE' | 'PURGE';
  files: { fileId: number; originalFileName: string; uploadDate: string }[];
  count: number;
}

export interface ChainCheck {
  intact: boolean;
  checked: number;
  firstBrokenId: number | null;
}

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
export function downloadUrl(id: number, inline: boolean, signal?: AbortSignal): Promise<{ url: string; expiresAt: string }> {
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

export interface NewShareLink {
  password?: string;
  expiresAt?: string;
  maxDownloads?: number;
}

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
 * password when the link has one and names the file (docs/decisions.md "The console"); the
 * link's own `url` is the API path that streams the bytes.
 */
export function sharePageUrl(token: string): string {
  return `${location.origin}/console/share/${encodeURIComponent(token)}`;
}
