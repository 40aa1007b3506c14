import type { HeaderObject, SchemaObject } from 'openapi3-ts/oas31';
import { AccrualServiceService } from '@platform/libs/gen/platform/bpm/v1/accrual.ts';
import { BranchServiceService } from '@platform/libs/gen/platform/bpm/v1/branch.ts';
import { AuthServiceService } from '@platform/libs/gen/platform/core/v1/auth.ts';
import { ExceptionLogServiceService } from '@platform/libs/gen/platform/core/v1/exception_log.ts';
import { SessionServiceService } from '@platform/libs/gen/platform/core/v1/session.ts';
import { DmsAuditLogServiceService } from '@platform/libs/gen/platform/dms/v1/dms_audit_log.ts';
import { DmsFileServiceService } from '@platform/libs/gen/platform/dms/v1/dms_file.ts';
import { DmsRetentionPolicyServiceService } from '@platform/libs/gen/platform/dms/v1/dms_retention_policy.ts';
import { accrual } from '@platform/contracts/bpm/accrual.ts';
import { dmsAuditLog } from '@platform/contracts/dms/dms-audit-log.ts';
import { branch } from '@platform/contracts/bpm/branch.ts';
import { AUTH_ROUTES } from '../routes/auth.ts';
import { BPM_ROUTES } from '../routes/bpm.ts';
import { DMS_FILE_BYTE_ROUTES } from '../routes/dms-file-bytes.ts';
import { DMS_SHARE_PUBLIC_ROUTES } from '../routes/dms-share-public.ts';
import { dmsShareLink } from '@platform/contracts/dms/dms-share-link.ts';
import { DMS_ROUTES } from '../routes/dms.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { dmsRetentionPolicy } from '@platform/contracts/dms/dms-retention-policy.ts';
import { DOCS_ASSETS, DOCS_ROUTES } from '../routes/docs.ts';
import { HEALTH_ROUTES } from '../routes/health.ts';
import type { RouteTable } from '../routes/route.ts';
import { SESSION_ROUTES } from '../routes/sessions.ts';
import type { OperationDoc } from './operation.ts';
import type { ProtoDocs } from './proto-docs.ts';
import { schemaNames } from './record-schemas.ts';
import { pageRequest, ref } from './shared-schemas.ts';

type DocsOf<T extends RouteTable> = { [K in keyof T]: OperationDoc };

const SET_COOKIE: Record<string, HeaderObject> = {
  'Set-Cookie': { description: 'SVC_SESSION=<JWT>; HttpOnly; SameSite=Lax; Path=/ (Secure in production).', schema: { type: 'string' } },
};
const UUID = { type: 'string', format: 'uuid' } as const;

/** An accrual move (docs/interface.md#partner-operations): an optional body of `fields`, the moved accrual, 409 for any other move. */
function accrualMove(summary: string, rpc: string | undefined, note: string, fields?: Record<string, SchemaObject>): OperationDoc {
  return {
    tag: accrual.path,
    summary,
    description: `${rpc ?? ''} ${note} Any other move is 409 SVC-SYS-4004; another tenant's accrual is 404.`.trim(),
    pathParams: { id: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The accrual\'s id.' } },
    ...(fields ? { body: { schema: { type: 'object', additionalProperties: false, properties: fields }, optional: true } } : {}),
    ok: { status: 200, schema: ref(schemaNames(accrual).record), description: 'The accrual in its new state, its version raised.' },
    errors: [409],
  };
}

/**
 * The words and bodies of the hand-written routes, keyed like their tables (a route added to a
 * table without its entry here is a type error), with the descriptions of the RPCs they call.
 * Each pair is [route table, its docs].
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

  const auth: DocsOf<typeof AUTH_ROUTES> = {
    login: {
      tag: 'auth',
      summary: 'Log in: sets the SVC_SESSION cookie',
      description: `${docs.rpc(AuthServiceService.login) ?? ''} The sixth wrong password for one user from one address within 15 minutes is 429.`.trim(),
      body: { schema: ref('LoginRequest') },
      ok: { status: 200, schema: ref('LoginResponse'), description: 'Logged in; the token is in the cookie.', headers: SET_COOKIE },
    },
    me: { tag: 'auth', summary: 'The caller and its current account', description: docs.rpc(AuthServiceService.me), ok: { status: 200, schema: ref('Me'), description: 'The caller.' } },
    switchAccount: {
      tag: 'auth',
      summary: 'Work in another account: a new cookie',
      description: docs.rpc(AuthServiceService.switchAccount),
      body: { schema: ref('SwitchAccountRequest') },
      ok: { status: 200, schema: ref('Me'), description: 'The caller as GET /api/auth/me shows it in the new account.', headers: SET_COOKIE },
    },
    changePassword: {
      tag: 'auth',
      summary: 'Change the caller\'s password',
      description: docs.rpc(AuthServiceService.changePassword),
      body: { schema: ref('ChangePasswordRequest') },
      ok: { status: 204, description: 'Changed; every token of the user is refused from now on.' },
    },
    logout: {
      tag: 'auth',
      summary: 'Log out: ends the session and clears the cookie',
      description: docs.rpc(AuthServiceService.logout),
      ok: { status: 204, description: 'Logged out (the cookie is sent with Max-Age=0).', headers: SET_COOKIE },
    },
  };

  const sessionPage = pageRequest(docs, { type: ['object', 'null'], description: 'May hold userCode, accountNo, crProcessId (docs/interface.md#sessions-and-logs).' }, false);
  const sessionId = { sessionId: { ...UUID, description: 'The session\'s id.' } };
  const sessionsPage = ref('SessionPage');
  const sessions: DocsOf<typeof SESSION_ROUTES> = {
    activeSessions: {
      tag: 'session',
      summary: 'The active sessions',
      description: docs.rpc(SessionServiceService.listActiveSessions),
      ok: { status: 200, schema: { type: 'array', items: ref('Session') }, description: 'At most 10,000, newest first.' },
    },
    activeSessionPage: {
      tag: 'session',
      summary: 'The active sessions a page at a time',
      description: docs.rpc(SessionServiceService.pageActiveSessions),
      body: { schema: sessionPage },
      ok: { status: 200, schema: sessionsPage, description: 'One page of sessions.' },
    },
    sessionHistory: {
      tag: 'session',
      summary: 'Ended sessions a page at a time, newest first',
      description: `${docs.rpc(SessionServiceService.pageSessionHistory) ?? ''} from and to are ISO 8601 instants bounding loginAt.`.trim(),
      ok: { status: 200, schema: sessionsPage, description: 'One page of sessions.' },
    },
    sessionStats: {
      tag: 'session',
      summary: 'Open and ended sessions',
      description: docs.rpc(SessionServiceService.getSessionStats),
      ok: { status: 200, schema: ref('Statistics'), description: 'activeCount: open sessions; passiveCount: ended ones.' },
    },
    getSession: { tag: 'session', summary: 'Get a session', description: docs.rpc(SessionServiceService.getSession), pathParams: sessionId, ok: { status: 200, schema: ref('Session'), description: 'The session.' } },
    createSession: {
      tag: 'session',
      summary: 'Open a session for a trusted tool',
      description: docs.rpc(SessionServiceService.createSession),
      body: { schema: ref('SessionCreate') },
      ok: { status: 200, schema: ref('Session'), description: 'The new session.' },
    },
    updateSession: {
      tag: 'session',
      summary: 'Change a session\'s expiry, or end it',
      description: docs.rpc(SessionServiceService.updateSession),
      pathParams: sessionId,
      body: { schema: ref('SessionUpdate') },
      ok: { status: 200, schema: ref('Session'), description: 'The session.' },
    },
    getException: {
      tag: 'logs',
      summary: 'An exception-log entry by its refId',
      description: docs.rpc(ExceptionLogServiceService.getException),
      pathParams: { refId: { ...UUID, description: 'The refId of a 5xx body.' } },
      ok: { status: 200, schema: ref('ExceptionEntry'), description: 'The entry.' },
    },
    exceptionPage: {
      tag: 'logs',
      summary: 'Exception-log entries a page at a time, newest first',
      description: docs.rpc(ExceptionLogServiceService.listExceptions),
      body: { schema: pageRequest(docs, { type: ['object', 'null'], description: 'May hold service, errorCode, userCode, crProcessId, createdAtFrom, createdAtTo (docs/interface.md#sessions-and-logs).' }, false) },
      ok: { status: 200, schema: ref('ExceptionEntryPage'), description: 'One page of entries.' },
    },
  };

  const bpm: DocsOf<typeof BPM_ROUTES> = {
    branchesByPartner: {
      tag: branch.path,
      summary: 'The branches of one business partner',
      description: docs.rpc(BranchServiceService.listBranchesByPartner),
      pathParams: { id: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The business partner\'s id.' } },
      ok: { status: 200, schema: { type: 'array', items: ref(schemaNames(branch).record) }, description: 'The branches, by id.' },
    },
    approveAccrual: accrualMove(
      'Approve an accrual: PENDING to APPROVED',
      docs.rpc(AccrualServiceService.approveAccrual),
      'Needs accrual:approve; records approvedAt and approvedBy.',
    ),
    invoiceAccrual: accrualMove(
      'Mark an accrual as invoiced: APPROVED to INVOICED',
      docs.rpc(AccrualServiceService.invoiceAccrual),
      'Needs accrual:invoice; records invoicedAt and the invoiceNo given.',
      { invoiceNo: { type: ['string', 'null'], maxLength: 64, description: 'Invoice number to record.' } },
    ),
    cancelAccrual: accrualMove(
      'Cancel an accrual: PENDING or APPROVED to CANCELLED',
      docs.rpc(AccrualServiceService.cancelAccrual),
      'Needs accrual:cancel; records cancelledAt and the reason given as cancelReason.',
      { reason: { type: ['string', 'null'], maxLength: 1000, description: 'Reason to record.' } },
    ),
  };

  const verify = 'platform.dms.v1.VerifyDmsAuditLogsResponse';
  const dryRun = 'platform.dms.v1.DryRunDmsRetentionPolicyResponse';
  const candidate = 'platform.dms.v1.DmsRetentionCandidate';

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

  const fileId = { id: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The file\'s id.' } } as const;
  const files = { type: 'array', items: ref(schemaNames(dmsFile).record) } as const;
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
      pathParams: fileId,
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
  const dmsExtra: DocsOf<typeof DMS_ROUTES> = {
    verifyAuditLogs: {
      tag: dmsAuditLog.path,
      summary: 'Check a tenant\'s audit hash chain',
      description: `${docs.rpc(DmsAuditLogServiceService.verifyDmsAuditLogs) ?? ''} Needs dms-audit-log:read; crProcessId is required (400 SVC-SYS-2002).`.trim(),
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            intact: { type: 'boolean', description: docs.field(verify, 'intact') },
            checked: { type: 'integer', format: 'int64', minimum: 0, description: docs.field(verify, 'checked') },
            firstBrokenId: { type: ['integer', 'null'], format: 'int64', description: docs.field(verify, 'firstBrokenId') },
          },
          required: ['intact', 'checked', 'firstBrokenId'],
        },
        description: 'The chain\'s state.',
      },
    },
    filesByEntity: { tag: dmsFile.path, summary: 'The files linked to one entity', description: docs.rpc(DmsFileServiceService.listDmsFilesByEntity), ok: { status: 200, schema: files, description: 'The files, by id.' } },
    searchFiles: { tag: dmsFile.path, summary: 'Search the files of a tenant', description: docs.rpc(DmsFileServiceService.searchDmsFiles), ok: { status: 200, schema: files, description: 'The files, by id.' } },
    fileDownloadUrl: {
      tag: dmsFile.path,
      summary: 'A signed download URL',
      description: docs.rpc(DmsFileServiceService.getDmsFileDownloadUrl),
      pathParams: fileId,
      ok: { status: 200, schema: ref('DmsFileDownloadUrl'), description: 'The URL and its expiry.' },
    },
    moveFileToCategory: {
      tag: dmsFile.path,
      summary: 'Move a file to a category',
      description: docs.rpc(DmsFileServiceService.moveDmsFileToCategory),
      pathParams: fileId,
      ok: { status: 200, schema: ref(schemaNames(dmsFile).record), description: 'The file, its version raised.' },
    },
    retentionDryRun: {
      tag: dmsRetentionPolicy.path,
      summary: 'What a retention policy would do now, without doing it',
      description: `${docs.rpc(DmsRetentionPolicyServiceService.dryRunDmsRetentionPolicy) ?? ''} Needs dms-retention-policy:read; the files are those the next retention run would act on (at most 1,000 listed; count is all of them).`.trim(),
      pathParams: { id: { type: 'integer', format: 'int64', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, description: 'The policy\'s id.' } },
      ok: {
        status: 200,
        schema: {
          type: 'object',
          additionalProperties: false,
          properties: {
            policyId: { type: 'integer', format: 'int64', description: docs.field(dryRun, 'policyId') },
            action: { type: 'string', enum: ['SOFT_DELETE', 'PURGE'], description: docs.field(dryRun, 'action') },
            files: {
              type: 'array',
              description: docs.field(dryRun, 'files'),
              items: {
                type: 'object',
                additionalProperties: false,
                properties: {
                  fileId: { type: 'integer', format: 'int64', description: docs.field(candidate, 'fileId') },
                  originalFileName: { type: 'string', description: docs.field(candidate, 'originalFileName') },
                  uploadDate: { type: 'string', format: 'date-time', description: docs.field(candidate, 'uploadDate') },
                },
                required: ['fileId', 'originalFileName', 'uploadDate'],
              },
            },
            count: { type: 'integer', format: 'int64', minimum: 0, description: docs.field(dryRun, 'count') },
          },
          required: ['policyId', 'action', 'files', 'count'],
        },
        description: 'The policy, its action and the files it would act on.',
      },
    },
  };

  return [
    [DMS_FILE_BYTE_ROUTES, fileBytes],
    [DMS_SHARE_PUBLIC_ROUTES, sharePublic],
    [HEALTH_ROUTES, health],
    [DOCS_ROUTES, reference],
    [AUTH_ROUTES, auth],
    [SESSION_ROUTES, sessions],
    [BPM_ROUTES, bpm],
    [DMS_ROUTES, dmsExtra],
  ];
}
