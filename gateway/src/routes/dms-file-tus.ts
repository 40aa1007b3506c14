import type { HeaderObject } from 'openapi3-ts/oas31';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import type { OperationTable } from '@platform/contracts/operation.ts';
import { REPLAYED } from './replayed-header.ts';

const UPLOAD_ID = {
  uploadId: { type: 'string', pattern: '^[0-9a-f]{32}$', description: "The upload's id, the last segment of the creation's Location." },
} as const;
const header = (description: string, type: 'string' | 'integer' = 'string'): HeaderObject => ({
  description,
  schema: type === 'integer' ? { type, minimum: 0 } : { type },
});
const TUS_RESUMABLE = header('1.0.0, on every answer.');
const UPLOAD_EXPIRES = header('When the unfinished upload is removed (RFC 9110 date): DMS_TUS_EXPIRY_SECONDS after its creation.');
const UPLOAD_OFFSET = header('Bytes of the upload received so far.', 'integer');
const FILE_ID = header('The dms-file the completed upload became (only once the upload is complete).', 'integer');
const DUPLICATE = header("A live file of the tenant with the same bytes (duplicateOfFileId's counterpart), when there is one.", 'integer');
const COMPLETE = {
  'Upload-File-Id': FILE_ID,
  'Upload-Duplicate-Of': DUPLICATE,
};
const REQUIRED =
  'Every request but OPTIONS needs Tus-Resumable: 1.0.0 (else 412 SVC-SYS-2001) and the session, like POST /api/dms-file/upload (dms-file:write). ';

/**
 * The resumable upload, tus 1.0.0 with creation, creation-with-upload, termination and expiration
 * (docs/interface.md#files "Resumable uploads"): handed to dms-svc as the multipart upload is, which
 * answers every request; a completed upload is stored by the same finalisation.
 */
export const TUS_ROUTES = {
  tusOptions: {
    method: 'options',
    path: '/api/dms-file/tus',
    doc: () => ({
      tag: dmsFile.path,
      summary: 'Resumable upload (tus): what the server offers',
      description: 'Tus-Version 1.0.0, Tus-Extension creation,creation-with-upload,termination,expiration, Tus-Max-Size DMS_MAX_UPLOAD_BYTES.',
      ok: {
        status: 204,
        description: 'The tus discovery headers.',
        headers: {
          'Tus-Version': header('1.0.0'),
          'Tus-Extension': header('The extensions offered.'),
          'Tus-Max-Size': header('DMS_MAX_UPLOAD_BYTES.', 'integer'),
        },
      },
    }),
  },
  tusCreate: {
    method: 'post',
    path: '/api/dms-file/tus',
    doc: () => ({
      tag: dmsFile.path,
      summary: 'Resumable upload (tus): create, maybe with the first bytes',
      description:
        REQUIRED +
        'Upload-Length (bytes; Upload-Defer-Length is refused) and Upload-Metadata: filename (required), filetype (the claimed type), and the form fields of the multipart upload ' +
        '(crProcessId required, entityType, entityId, integrationKey, categoryId, description, tags); another key is 400 SVC-SYS-2001. ' +
        "Over DMS_MAX_UPLOAD_BYTES or the tenant's maxFileSize: 413 SVC-SYS-3001; over the remaining quota (live files and the lengths of unfinished uploads): 413 SVC-SYS-3007; " +
        "beyond the user's DMS_TUS_MAX_OPEN_UPLOADS unfinished uploads: 413 SVC-SYS-3007 (tus.tooManyOpen); a filetype outside allowedMimeTypes: 415 SVC-SYS-3002 " +
        '(the content is judged again on its first 4,100 bytes, at the PATCH that brings them). ' +
        'A body (Content-Type application/offset+octet-stream) is the first bytes; when it is the whole file the answer names the stored file. ' +
        "Under an Idempotency-Key the request is Upload-Length and Upload-Metadata: a repeat answers 201 with the same Location and the upload's offset now, and reads no body.",
      headers: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      ok: {
        status: 201,
        description: 'Created: Location is /api/dms-file/tus/{uploadId} (relative).',
        headers: {
          Location: header('The upload, /api/dms-file/tus/{uploadId}.'),
          'Tus-Resumable': TUS_RESUMABLE,
          'Upload-Offset': UPLOAD_OFFSET,
          'Upload-Expires': UPLOAD_EXPIRES,
          ...COMPLETE,
          ...REPLAYED,
        },
      },
      errors: [412, 413, 415, 422],
    }),
  },
  tusHead: {
    method: 'head',
    path: '/api/dms-file/tus/:uploadId',
    doc: () => ({
      tag: dmsFile.path,
      summary: 'Resumable upload (tus): the offset to resume from',
      description: REQUIRED + "Another user's or tenant's upload, an expired or terminated one: 404. A completed one tells its file in Upload-File-Id.",
      pathParams: UPLOAD_ID,
      ok: {
        status: 200 as const,
        schema: { type: 'string' },
        description: 'No body: Upload-Offset, Upload-Length, Upload-Metadata (as given), Cache-Control: no-store.',
        headers: { 'Upload-Offset': UPLOAD_OFFSET, 'Upload-Length': header("The upload's length.", 'integer'), 'Tus-Resumable': TUS_RESUMABLE, ...COMPLETE },
      },
      errors: [412],
    }),
  },
  tusPatch: {
    method: 'patch',
    path: '/api/dms-file/tus/:uploadId',
    doc: () => ({
      tag: dmsFile.path,
      summary: 'Resumable upload (tus): send bytes from Upload-Offset',
      description:
        REQUIRED +
        "Content-Type application/offset+octet-stream (else 415 SVC-SYS-2001); Upload-Offset must be the upload's (else 409 SVC-SYS-4002); bytes beyond Upload-Length are 413 SVC-SYS-3001. " +
        'The PATCH that completes the upload stores the file as POST /api/dms-file/upload does (limits, allowedMimeTypes 415 SVC-SYS-3002, quota 413 SVC-SYS-3007, audit, event, duplicate) and names it in Upload-File-Id; a refusal there removes the upload.',
      body: { schema: { type: 'string', format: 'binary' }, contentType: 'application/offset+octet-stream' },
      pathParams: UPLOAD_ID,
      ok: {
        status: 204,
        description: 'The new Upload-Offset.',
        headers: { 'Upload-Offset': UPLOAD_OFFSET, 'Upload-Expires': UPLOAD_EXPIRES, 'Tus-Resumable': TUS_RESUMABLE, ...COMPLETE },
      },
      errors: [409, 412, 415],
    }),
  },
  tusTerminate: {
    method: 'delete',
    path: '/api/dms-file/tus/:uploadId',
    doc: () => ({
      tag: dmsFile.path,
      summary: 'Resumable upload (tus): terminate',
      description: REQUIRED + 'An unfinished upload loses its bytes at once; a completed one only its record (the file stays a dms-file).',
      pathParams: UPLOAD_ID,
      ok: { status: 204, description: 'Removed.', headers: { 'Tus-Resumable': TUS_RESUMABLE } },
      errors: [412],
    }),
  },
} as const satisfies OperationTable;
