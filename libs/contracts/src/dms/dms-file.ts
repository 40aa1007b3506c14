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
  grpc: DmsFileServiceService,
  encoder: DmsFile,
  operations: 'no-create',
  softDelete: 'deleted',
  fields: {
    originalFileName: { kind: 'string', readOnly: true, searchable: true },
    // one file's bytes per stored name: the storage sweep finds a name's row by it, and a purge never takes another file's bytes
    storedFileName: { kind: 'string', readOnly: true, maxLength: 64, unique: 'global' },
    fileSize: { kind: 'long', readOnly: true, min: 0 },
    mimeType: { kind: 'string', readOnly: true, maxLength: 255 },
    uploadDate: { kind: 'datetime', readOnly: true },
    entityType: { kind: 'string', maxLength: 64 },
    entityId: { kind: 'long', notReference: 'names a record of any entity type (entityType), of any service, or of none the platform keeps' },
    integrationKey: { kind: 'string' },
    categoryId: { kind: 'long', min: 1, references: 'dms-category' },
    description: { kind: 'string', maxLength: 1000, searchable: true },
    tags: { kind: 'string', maxLength: 1000, searchable: true },
    checksum: { kind: 'string', readOnly: true, maxLength: 64 },
    deleted: { kind: 'boolean', readOnly: true, default: false },
    downloadUrl: { kind: 'string', readOnly: true, computed: true, maxLength: 2000 },
    legalHold: { kind: 'boolean', default: false },
  },
});
