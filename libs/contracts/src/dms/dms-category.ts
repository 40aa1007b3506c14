import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsCategoryServiceService, DmsCategory } from '@platform/kit/gen/platform/dms/v1/dms_category.ts';

/**
 * A folder of documents (docs/interface.md#records): a tree within a tenant. The name is unique among its
 * siblings, the top-level ones included: the unique key spans `parentKey` (the parent's id, 0 at the
 * top) rather than the nullable parentId, whose NULLs would never collide. A category is never its
 * own ancestor (dms-svc/src/resources/dms-category/dms-category.hooks.ts).
 */
export const dmsCategory = defineResource<DmsCategory>()({
  path: 'dms-category',
  name: 'DmsCategory',
  plural: 'DmsCategories',
  service: 'dms',
  menu: { area: 'documents' },
  grpc: DmsCategoryServiceService,
  encoder: DmsCategory,
  operations: 'full',
  fields: {
    categoryName: { kind: 'string', required: true, searchable: true, doc: 'Display name; unique within its parent (and among the top-level categories).' },
    parentId: {
      kind: 'long',
      references: 'dms-category',
      doc: 'The parent category (same tenant); empty for a top-level one. A category is never its own ancestor.',
    },
    description: { kind: 'string', maxLength: 1000, searchable: true, doc: 'Free text.' },
    readRole: {
      kind: 'string',
      maxLength: 100,
      pattern: '^\\S+$',
      doc: 'A role code (such as hr-files:read) the caller must hold to read the files of this category and of every category below it; empty: dms-file:read alone.',
    },
  },
  columns: {
    // parentId, or 0 for a top-level category: kept by the hooks, so that the unique key sees top-level names
    parentKey: { kind: 'long', default: 0 },
  },
  uniques: [['parentKey', 'categoryName']],
  form: {
    sections: [{ title: { en: 'Category', tr: 'Kategori' }, fields: ['categoryName', 'parentId', 'description', 'readRole', 'status'] }],
  },
  labels: {
    en: {
      one: 'Category',
      other: 'Categories',
      fields: { categoryName: 'Category name', parentId: 'Parent category', description: 'Description', readRole: 'Read role' },
      help: {
        parentId: 'Left empty, the category is a top-level one.',
        readRole: 'A role code, such as hr-files:read. Only users holding it read the files of this category and of the categories below it.',
      },
    },
    tr: {
      one: 'Kategori',
      other: 'Kategoriler',
      fields: { categoryName: 'Kategori adı', parentId: 'Üst kategori', description: 'Açıklama', readRole: 'Okuma rolü' },
      help: {
        parentId: 'Boş bırakılırsa kategori en üst düzeydedir.',
        readRole: 'Bir rol kodu, ör. hr-files:read. Bu kategorinin ve altındaki kategorilerin dosyalarını yalnızca bu role sahip kullanıcılar okuyabilir.',
      },
    },
  },
  list: {
    columns: ['categoryName', 'parentId', 'description', 'status'],
    filters: ['categoryName', 'parentId'],
    match: { categoryName: 'prefix' },
  },
});
