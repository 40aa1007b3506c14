import type { SearchDmsFilesRequest } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type { TextFilters } from './search-text.ts';

/** The search's filters from its request, each checked as a field of its kind (a wrong one: 400 SVC-SYS-2001 naming it). */
export function searchFilters(request: SearchDmsFilesRequest): TextFilters {
  const filters: TextFilters = {};
  if (request.categoryId !== undefined) filters.categoryId = toRowValue('categoryId', { kind: 'long', min: 1 }, request.categoryId) as number;
  if (request.mimeType !== undefined) filters.mimeType = toRowValue('mimeType', { kind: 'string', maxLength: 255 }, request.mimeType) as string;
  if (request.uploadedFrom !== undefined) filters.uploadedFrom = toRowValue('uploadedFrom', { kind: 'datetime' }, request.uploadedFrom) as Date;
  if (request.uploadedTo !== undefined) filters.uploadedTo = toRowValue('uploadedTo', { kind: 'datetime' }, request.uploadedTo) as Date;
  if (request.createdBy !== undefined) filters.createdBy = toRowValue('createdBy', { kind: 'string', maxLength: 100 }, request.createdBy) as string;
  return filters;
}

/** The same filters as a condition on the files' entity (the search of names, descriptions and tags). */
export function filterCondition(filters: TextFilters): Record<string, unknown> {
  return {
    ...(filters.categoryId === undefined ? {} : { categoryId: filters.categoryId }),
    ...(filters.mimeType === undefined ? {} : { mimeType: filters.mimeType }),
    ...(filters.uploadedFrom === undefined && filters.uploadedTo === undefined
      ? {}
      : { uploadDate: { ...(filters.uploadedFrom ? { $gte: filters.uploadedFrom } : {}), ...(filters.uploadedTo ? { $lt: filters.uploadedTo } : {}) } }),
    ...(filters.createdBy === undefined ? {} : { createdBy: filters.createdBy }),
    ...(filters.unreadableCategories?.length ? { $or: [{ categoryId: null }, { categoryId: { $nin: [...filters.unreadableCategories] } }] } : {}),
  };
}
