import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { FILE_ID } from '@platform/contracts/dms/operations.ts';
import type { OperationTable } from '@platform/contracts/operation.ts';
import type { Forward } from '../relay/forward.ts';
import { routerFor, type RouteGroup } from './route.ts';
import { REPLAYED } from './replayed-header.ts';
import { TUS_ROUTES } from './dms-file-tus.ts';

/**
 * The routes whose bodies are file bytes (docs/interface.md#files): streamed both ways to
 * dms-svc's HTTP server after the filter chain, and registered before the JSON body parser so that
 * nothing here reads them. The upload is a JWT path (the gateway checks the token as for every
 * call, and dms-svc proves it again itself); the download is a signed URL (http/path-category.ts).
 * GET routes answer HEAD too. X-Forwarded-For carries exactly one address: the client's as this
 * gateway proved it.
 */
export const DMS_FILE_BYTE_ROUTES = {
  uploadFile: {
    method: 'post',
    path: '/api/dms-file/upload',
    doc: (sources) => ({
      tag: dmsFile.path,
      summary: 'Upload a file (multipart/form-data, streamed)',
      description:
        'Parts: file (the file), crProcessId (required), entityType, entityId, integrationKey, categoryId, description, tags. Needs dms-file:write; ' +
        'a user who is not a super user names only its own tenant. Over DMS_MAX_UPLOAD_BYTES: 413 SVC-SYS-3001, nothing kept. ' +
        'Under an Idempotency-Key the request is the file (its SHA-256), its file name and the form fields: a repeat keeps no second copy. ' +
        'Where virus scanning is on (CLAMD_ADDRESS), every file is scanned before it is stored: malware is 422 SVC-SYS-2001 (upload.infected, on field file; audited as UPLOAD_REFUSED), ' +
        'a file larger than the scanner accepts 413 SVC-SYS-3001, the scanner unreachable or too slow 503 SVC-SYS-5002; none of them keeps anything, or an Idempotency-Key.',
      headers: [{ $ref: '#/components/parameters/IdempotencyKey' }],
      body: { schema: sources.ref('DmsFileUpload'), contentType: 'multipart/form-data' },
      ok: {
        status: 200,
        schema: sources.ref('DmsFileUploaded'),
        description: 'The stored file; duplicateOfFileId names a live file of the tenant with the same checksum.',
        headers: REPLAYED,
      },
      errors: [413, 422],
    }),
  },
  ...TUS_ROUTES,
  downloadFile: {
    method: 'get',
    path: '/api/dms-file/download/:id',
    doc: () => ({
      tag: dmsFile.path,
      summary: 'Download a file by its signed URL (no session; HEAD too)',
      description:
        'token, expires, inline and user as GET /api/dms-file/{id}/download-url gave them: a changed or missing one is 403 SVC-SYS-3003, a past expires 403 SVC-SYS-3004. ' +
        "The download is audited as user (whom the URL was signed for), as anonymous when the URL names none (a record's downloadUrl). " +
        'One Range gives 206 with Content-Range; an unsatisfiable one 416 with Content-Range: bytes */<size>; a malformed or multi-range header the whole file (200). ' +
        'inline=true serves inline only types safe to show (raster images but SVG, PDF, plain text, audio, video); any other type is an attachment. ' +
        'Every answer with bytes carries Content-Security-Policy: sandbox (no script), Cross-Origin-Resource-Policy: same-site and Referrer-Policy: no-referrer.',
      pathParams: FILE_ID,
      query: {
        token: { type: 'string', description: 'The signature.' },
        expires: { type: 'integer', description: 'Expiry, Unix seconds.' },
        inline: { type: 'string', enum: ['true', 'false'], description: 'inline (for the types safe to show) or attachment.' },
        user: { type: 'string', description: "The userCode the URL was signed for, within the signature; absent in a record's downloadUrl." },
      },
      ok: { status: 200, schema: { type: 'string', format: 'binary' }, contentType: '*/*', description: 'The bytes (206 for a range).' },
      alsoAnswers: { status: 206, description: 'The range asked for.' },
    }),
  },
} as const satisfies OperationTable;

/** The file byte routes: the uploads through `proxy` (relay/dms-proxy.ts), the download through `relay` (relay/download-relay.ts). */
export function dmsFileByteRoutes(proxy: Forward, relay: Forward): RouteGroup {
  return routerFor(DMS_FILE_BYTE_ROUTES, {
    uploadFile: proxy,
    tusOptions: proxy,
    tusCreate: proxy,
    tusHead: proxy,
    tusPatch: proxy,
    tusTerminate: proxy,
    downloadFile: relay,
  });
}
