import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsFileServiceService, DmsFile } from '@platform/kit/gen/platform/dms/v1/dms_file.ts';

/**
 * A stored document's metadata (docs/interface.md#files). Made only by the upload (HTTP, streamed: see
 * dms-svc/src/files/store-upload.ts), so the set has no create; delete is soft (`deleted`), and a deleted file
 * is gone from get, lists, search and download. `categoryId` names a dms-category of the same
 * tenant (a foreign key: a category with files cannot be deleted). `legalHold` keeps a file from
 * deletion (409 SVC-SYS-4004) and from retention until it is lifted (dms-svc/src/resources/dms-file/dms-file.hooks.ts).
 */
export const dmsFile = defineResource<DmsFile>()({
  path: 'dms-file',
  name: 'DmsFile',
  plural: 'DmsFiles',
  service: 'dms',
  menu: null,
  grpc: DmsFileServiceService,
  encoder: DmsFile,
  operations: 'no-create',
  softDelete: 'deleted',
  // a record's files: its page's related list and GET /api/dms-file/by-entity
  listIndexes: [['entityType', 'entityId']],
  protoDocs: {
    rpcs: {
      get: 'Returns one DmsFile with a signed download URL; a soft-deleted file is not found.',
      update: 'Updates the metadata named in update_mask when version equals the stored one.',
      delete: 'Soft-deletes a DmsFile: it is gone from get, lists, search and download.',
      list: 'Lists DmsFiles a page at a time (soft-deleted ones left out).',
    },
    fields: {
      id: 'Generated on upload: the fileId.',
      version: 'Optimistic lock: 0 on upload, +1 on every update.',
      createdBy: 'userCode of the uploader; read-only.',
    },
  },
  fields: {
    originalFileName: { kind: 'string', readOnly: true, searchable: true, doc: "The client's file name without any path; read-only." },
    // one file's bytes per stored name: the storage sweep finds a name's row by it, and a purge never takes another file's bytes
    storedFileName: { kind: 'string', readOnly: true, maxLength: 64, unique: 'global', doc: 'The generated name the bytes are stored under; read-only.' },
    fileSize: { kind: 'long', readOnly: true, min: 0, doc: 'Size in bytes; read-only.' },
    mimeType: { kind: 'string', readOnly: true, maxLength: 255, doc: 'MIME type, sniffed from the content where recognisable; read-only.' },
    uploadDate: { kind: 'datetime', readOnly: true, doc: 'When the upload completed, ISO 8601 UTC; read-only.' },
    // a resource's path here (business-partner) links the file to that record: it is listed on the record's page
    entityType: { kind: 'string', maxLength: 64, doc: 'Linked entity type.' },
    entityId: {
      kind: 'long',
      notReference: 'names a record of any entity type (entityType), of any service, or of none the platform keeps',
      recordOf: 'entityType',
      doc: 'Linked entity id.',
    },
    integrationKey: { kind: 'string', doc: 'External system reference.' },
    categoryId: { kind: 'long', min: 1, references: 'dms-category', doc: 'A dms-category of the same tenant.' },
    description: { kind: 'string', maxLength: 1000, searchable: true, doc: 'Description.' },
    tags: { kind: 'string', maxLength: 1000, searchable: true, doc: 'Comma-separated tags.' },
    checksum: { kind: 'string', readOnly: true, maxLength: 64, doc: 'SHA-256 of the content, lower-case hex; read-only.' },
    deleted: { kind: 'boolean', readOnly: true, default: false, doc: 'Soft-deleted; read-only (such a file is never shown).' },
    downloadUrl: {
      kind: 'string',
      readOnly: true,
      computed: true,
      maxLength: 2000,
      doc: 'A signed, gateway-relative download URL; read-only, computed on every read.',
    },
    legalHold: { kind: 'boolean', default: false, doc: 'Under legal hold: while true the file cannot be deleted (409) nor touched by retention.' },
    searchRank: {
      kind: 'decimal',
      readOnly: true,
      computed: true,
      doc: 'On a search answer only: how well the file matches the search, higher first; read-only.',
    },
    searchSnippet: {
      kind: 'text',
      readOnly: true,
      computed: true,
      doc: "On a search answer only: the passages of the file's text that match, as HTML: the words found in <mark>, every other character escaped; read-only.",
    },
  },
  form: {
    sections: [
      { title: { en: 'File', tr: 'Dosya' }, fields: ['originalFileName', 'mimeType', 'fileSize', 'uploadDate', 'checksum'] },
      { title: { en: 'Filing', tr: 'Dosyalama' }, fields: ['categoryId', 'description', 'tags', 'entityType', 'entityId', 'integrationKey'] },
      { title: { en: 'Keeping', tr: 'Saklama' }, fields: ['legalHold', 'status'] },
    ],
  },
  labels: {
    en: {
      one: 'File',
      other: 'Files',
      fields: {
        originalFileName: 'File name',
        storedFileName: 'Stored as',
        fileSize: 'Size',
        mimeType: 'File type',
        uploadDate: 'Uploaded',
        entityType: 'Linked record type',
        entityId: 'Linked record',
        integrationKey: 'Integration key',
        categoryId: 'Category',
        description: 'Description',
        tags: 'Tags',
        checksum: 'Checksum (SHA-256)',
        deleted: 'Deleted',
        downloadUrl: 'Download link',
        legalHold: 'Legal hold',
        searchRank: 'Relevance',
        searchSnippet: 'Found in the text',
      },
      help: {
        integrationKey: "The file's reference in another system.",
        tags: 'Separated by commas.',
        legalHold: 'While on, the file can be neither deleted nor removed by retention.',
      },
    },
    tr: {
      one: 'Dosya',
      other: 'Dosyalar',
      fields: {
        originalFileName: 'Dosya adı',
        storedFileName: 'Depolama adı',
        fileSize: 'Boyut',
        mimeType: 'Dosya türü',
        uploadDate: 'Yüklenme',
        entityType: 'Bağlı kayıt türü',
        entityId: 'Bağlı kayıt',
        integrationKey: 'Entegrasyon anahtarı',
        categoryId: 'Kategori',
        description: 'Açıklama',
        tags: 'Etiketler',
        checksum: 'Sağlama toplamı (SHA-256)',
        deleted: 'Silindi',
        downloadUrl: 'İndirme bağlantısı',
        legalHold: 'Yasal saklama',
        searchRank: 'İlgi',
        searchSnippet: 'Metinde bulunan',
      },
      help: {
        integrationKey: 'Dosyanın başka bir sistemdeki karşılığı.',
        tags: 'Virgülle ayrılmış.',
        legalHold: 'Açıkken dosya ne silinebilir ne de saklama kurallarınca kaldırılabilir.',
      },
    },
  },
  list: {
    columns: ['originalFileName', 'mimeType', 'fileSize', 'uploadDate', 'entityType', 'categoryId'],
    filters: ['originalFileName', 'categoryId', 'entityType', 'uploadDate'],
    match: { originalFileName: 'prefix' },
  },
});
