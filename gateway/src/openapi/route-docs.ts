import type { OperationTable } from '@platform/contracts/operation.ts';
import { OPERATION_TABLES } from '@platform/contracts/operations.ts';
import { FILE_ID } from '@platform/contracts/dms/operations.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { dmsShareLink } from '@platform/contracts/dms/dms-share-link.ts';
import { DMS_FILE_BYTE_ROUTES } from '../routes/dms-file-bytes.ts';
import { DMS_SHARE_PUBLIC_ROUTES } from '../routes/dms-share-public.ts';
import { DOCS_ASSETS, DOCS_ROUTES } from '../routes/docs.ts';
import { HEALTH_ROUTES } from '../routes/health.ts';
import type { RouteTable } from '../routes/route.ts';
import { docSourcesOf } from './doc-sources.ts';
import type { OperationDoc } from './operation.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { ref } from './shared-schemas.ts';

type DocsOf<T extends RouteTable> = { [K in keyof T]: OperationDoc };

/** The document entries of a table of declared operations, each written by its declaration. */
function operationDocs(table: OperationTable, docs: ProtoDocs): Record<string, OperationDoc> {
  return Object.fromEntries(Object.entries(table).map(([name, operation]) => [name, operation.doc(docSourcesOf(docs, operation))]));
}

/**
 * The words and bodies of the routes beyond the CRUD sets: those of the hand-written routes (streams,
 * health, this document) keyed like their tables (a route added to a table without its entry here is
 * a type error), then those the declared operations write (libs/contracts). Each pair is [route
 * table, its docs], in the order the routers are registered.
 */
export function handWrittenDocs(docs: ProtoDocs): [RouteTable, Record<string, OperationDoc>][] {
  const health: DocsOf<typeof HEALTH_ROUTES> = {
    health: {
      tag: 'health',
      summary: 'Health of the gateway and what it depends on',
      ok: { status: 200, schema: ref('Health'), description: 'Every component UP.' },
      alsoAnswers: { status: 503, description: 'A component DOWN.' },
    },
    liveness: { tag: 'health', summary: 'Liveness of the gateway', ok: { status: 200, schema: ref('Liveness'), description: 'The gateway answers.' } },
  };

  const reference: DocsOf<typeof DOCS_ROUTES> = {
    reference: { tag: 'docs', summary: 'This reference, as an interactive page', ok: { status: 200, schema: { type: 'string' }, contentType: 'text/html', description: 'The page; its scripts and styles are served under /api/docs/assets.' } },
    document: { tag: 'docs', summary: 'This API document (OpenAPI 3.1)', ok: { status: 200, schema: { type: 'object' }, description: 'The document, generated from the route tables and the resource declarations.' } },
    asset: {
      tag: 'docs',
      summary: 'A script, style or icon of the reference page',
      pathParams: { file: { type: 'string', enum: Object.keys(DOCS_ASSETS) } },
      ok: { status: 200, schema: { type: 'string' }, contentType: '*/*', description: 'The file.' },
    },
  };

  const fileBytes: DocsOf<typeof DMS_FILE_BYTE_ROUTES> = {
    uploadFile: {
      tag: dmsFile.path,
      summary: 'Upload a file (multipart/form-data, streamed)',
      description:
        'Parts: file (the file), crProcessId (required), entityType, entityId, integrationKey, categoryId, description, tags. Needs dms-file:write; ' +
        'a user who is not a super user names only its own tenant. Over DMS_MAX_UPLOAD_BYTES: 413 SVC-SYS-3001, nothing kept.',
      body: { schema: ref('DmsFileUpload'), contentType: 'multipart/form-data' },
      ok: { status: 200, schema: ref('DmsFileUploaded'), description: 'The stored file; duplicateOfFileId names a live file of the tenant with the same checksum.' },
      errors: [413],
    },
    downloadFile: {
      tag: dmsFile.path,
      summary: 'Download a file by its signed URL (no session; HEAD too)',
      description:
        'token, expires and inline as GET /api/dms-file/{id}/download-url gave them: a changed or missing one is 403 SVC-SYS-3003, a past expires 403 SVC-SYS-3004. ' +
        'One Range gives 206 with Content-Range; an unsatisfiable one 416 with Content-Range: bytes */<size>; a malformed or multi-range header the whole file (200). ' +
        'inline=true serves inline only types safe to show (raster images but SVG, PDF, plain text, audio, video); any other type is an attachment. ' +
        'Every answer with bytes carries Content-Security-Policy: sandbox (no script), Cross-Origin-Resource-Policy: same-site and Referrer-Policy: no-referrer.',
      pathParams: FILE_ID,
      query: {
        token: { type: 'string', description: 'The signature.' },
        expires: { type: 'integer', description: 'Expiry, Unix seconds.' },
        inline: { type: 'string', enum: ['true', 'false'], description: 'inline (for the types safe to show) or attachment.' },
      },
      ok: { status: 200, schema: { type: 'string', format: 'binary' }, contentType: '*/*', description: 'The bytes (206 for a range).' },
      alsoAnswers: { status: 206, description: 'The range asked for.' },
    },
  };
  const shareToken = { token: { type: 'string', pattern: '^[A-Za-z0-9_-]+$', description: 'The share link\'s token.' } } as const;
  const sharePublic: DocsOf<typeof DMS_SHARE_PUBLIC_ROUTES> = {
    sharePublicDownload: {
      tag: dmsShareLink.path,
      summary: 'Download a shared file (no session; HEAD too)',
      description:
        'The link\'s file as an attachment, with the download headers and ranges of signed URLs. A link with a password is 401 SVC-SYS-3005 ' +
        'until validated: then the downloadUrl of validate-password, which adds token and expires (a changed one 403 SVC-SYS-3003, a past one 403 SVC-SYS-3004). ' +
        'An expired, passive, used-up (completed downloads plus those under way reach maxDownloads) or deleted-file link is 410 SVC-SYS-3006; an unknown token 404. ' +
        'A complete download counts one against maxDownloads (a slot is taken before streaming and given back if the download is cut off). Audited as SHARE_ACCESS.',
      pathParams: shareToken,
      query: {
        token: { type: 'string', description: 'The signature validate-password gave (links with a password).' },
        expires: { type: 'integer', description: 'Its expiry, Unix seconds.' },
      },
      ok: { status: 200, schema: { type: 'string', format: 'binary' }, contentType: '*/*', description: 'The bytes (206 for a range).' },
      alsoAnswers: { status: 206, description: 'The range asked for.' },
      errors: [401, 410],
    },
    sharePublicValidatePassword: {
      tag: dmsShareLink.path,
      summary: 'Validate a share link\'s password (no session)',
      description:
        'A right password: 200 with a signed downloadUrl (the public path with token and expires) valid until DMS_URL_TTL_SECONDS from now or the link\'s expiry. ' +
        'A wrong one: 403 with the error body of SVC-SYS-3005 and valid: false. The sixth wrong password for one link from one address within 15 minutes is 429. ' +
        'Audited as PASSWORD_OK or PASSWORD_FAIL. Unknown token 404; unusable link 410 SVC-SYS-3006.',
      pathParams: shareToken,
      body: { schema: { type: 'object', additionalProperties: false, properties: { password: { type: 'string' } }, required: ['password'] } },
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: { valid: { const: true }, downloadUrl: { type: 'string', description: '/api/dms-share-link/public/{token}?token=...&expires=...' }, expiresAt: { type: 'string', format: 'date-time' } },
          required: ['valid', 'downloadUrl', 'expiresAt'],
        },
        description: 'The password is right.',
      },
      errors: [410],
    },
  };
  return [
    [DMS_FILE_BYTE_ROUTES, fileBytes],
    [DMS_SHARE_PUBLIC_ROUTES, sharePublic],
    [HEALTH_ROUTES, health],
    [DOCS_ROUTES, reference],
    ...OPERATION_TABLES.map((table): [RouteTable, Record<string, OperationDoc>] => [table, operationDocs(table, docs)]),
  ];
}
