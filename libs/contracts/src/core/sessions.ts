import { ExceptionLogServiceService } from '@platform/kit/gen/platform/core/v1/exception_log.ts';
import { SessionServiceService } from '@platform/kit/gen/platform/core/v1/session.ts';
import { rpcOperation, type OperationTable } from '../operation.ts';

const UUID = { type: 'string', format: 'uuid' } as const;
const SESSION_DAY = 'platform.core.v1.SessionDay';
const SESSION_ID = { sessionId: { ...UUID, description: "The session's id." } };

/**
 * The API-key endpoints of sessions and exception logs (docs/interface.md#sessions-and-logs):
 * core's SessionService and ExceptionLogService, called with the gateway's own credential once the
 * gateway has checked the API key, or with a super user's token from the console
 * (docs/adr/0085-the-console-operator-paths.md).
 */
export const SESSION_OPERATIONS = {
  activeSessions: rpcOperation({
    method: 'get',
    path: '/api/session/active',
    rpc: { service: 'core', method: SessionServiceService.listActiveSessions, retry: 'read' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'The active sessions',
      description: sources.rpc,
      ok: { status: 200, schema: { type: 'array', items: sources.ref('Session') }, description: 'At most 10,000, newest first.' },
    }),
  }),
  activeSessionPage: rpcOperation({
    method: 'post',
    path: '/api/session/active/list',
    rpc: { service: 'core', method: SessionServiceService.pageActiveSessions, retry: 'read' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'The active sessions a page at a time',
      description: sources.rpc,
      body: {
        schema: sources.pageRequest({
          type: ['object', 'null'],
          description: 'May hold userCode, accountNo, crProcessId (docs/interface.md#sessions-and-logs).',
          properties: { userCode: { type: 'string' }, accountNo: { type: 'string' }, crProcessId: { type: 'integer', format: 'int64' } },
        }),
      },
      ok: { status: 200, schema: sources.ref('SessionPage'), description: 'One page of sessions.' },
    }),
  }),
  sessionHistory: rpcOperation({
    method: 'get',
    path: '/api/session/history/list',
    query: { page: 'int', size: 'int', userCode: 'text', from: 'text', to: 'text' },
    rpc: { service: 'core', method: SessionServiceService.pageSessionHistory, retry: 'read' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'Ended sessions a page at a time, newest first',
      description: `${sources.rpc ?? ''} from and to are ISO 8601 instants bounding loginAt.`.trim(),
      ok: { status: 200, schema: sources.ref('SessionPage'), description: 'One page of sessions.' },
    }),
  }),
  sessionStats: rpcOperation({
    method: 'get',
    path: '/api/session/stats',
    rpc: { service: 'core', method: SessionServiceService.getSessionStats, retry: 'read' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'Open and ended sessions',
      description: sources.rpc,
      ok: { status: 200, schema: sources.ref('Statistics'), description: 'activeCount: open sessions; passiveCount: ended ones.' },
    }),
  }),
  sessionsByDay: rpcOperation({
    method: 'get',
    path: '/api/session/daily',
    query: { days: 'int', crProcessId: 'id' },
    rpc: { service: 'core', method: SessionServiceService.countSessionsByDay, retry: 'read' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'Sessions opened per day',
      description: `${sources.rpc ?? ''} days is 1 to 92 (14 when absent); crProcessId narrows the count to one tenant.`.trim(),
      ok: {
        status: 200,
        schema: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            properties: {
              day: { type: 'string', format: 'date', description: sources.field(SESSION_DAY, 'day') },
              count: { type: 'integer', format: 'int64', minimum: 0, description: sources.field(SESSION_DAY, 'count') },
            },
            required: ['day', 'count'],
          },
        },
        description: 'One entry per day, oldest first.',
      },
    }),
  }),
  getSession: rpcOperation({
    method: 'get',
    path: '/api/session/:sessionId',
    rpc: { service: 'core', method: SessionServiceService.getSession, retry: 'read' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'Get a session',
      description: sources.rpc,
      pathParams: SESSION_ID,
      ok: { status: 200, schema: sources.ref('Session'), description: 'The session.' },
    }),
  }),
  createSession: rpcOperation({
    method: 'post',
    path: '/api/session',
    rpc: { service: 'core', method: SessionServiceService.createSession, retry: 'write' },
    doc: (sources) => ({
      tag: 'session',
      summary: 'Open a session for a trusted tool',
      description: sources.rpc,
      body: { schema: sources.ref('SessionCreate') },
      ok: { status: 200, schema: sources.ref('Session'), description: 'The new session.' },
    }),
  }),
  updateSession: rpcOperation({
    method: 'put',
    path: '/api/session/:sessionId',
    rpc: { service: 'core', method: SessionServiceService.updateSession, retry: 'write' },
    doc: (sources) => ({
      tag: 'session',
      summary: "Change a session's expiry, or end it",
      description: sources.rpc,
      pathParams: SESSION_ID,
      body: { schema: sources.ref('SessionUpdate') },
      ok: { status: 200, schema: sources.ref('Session'), description: 'The session.' },
    }),
  }),
  getException: rpcOperation({
    method: 'get',
    path: '/api/logs/exceptions/:refId',
    rpc: { service: 'core', method: ExceptionLogServiceService.getException, retry: 'read' },
    doc: (sources) => ({
      tag: 'logs',
      summary: 'An exception-log entry by its refId',
      description: sources.rpc,
      pathParams: { refId: { ...UUID, description: 'The refId of a 5xx body.' } },
      ok: { status: 200, schema: sources.ref('ExceptionEntry'), description: 'The entry.' },
    }),
  }),
  exceptionPage: rpcOperation({
    method: 'post',
    path: '/api/logs/exceptions/list',
    rpc: { service: 'core', method: ExceptionLogServiceService.listExceptions, retry: 'read' },
    doc: (sources) => ({
      tag: 'logs',
      summary: 'Exception-log entries a page at a time, newest first',
      description: sources.rpc,
      body: {
        schema: sources.pageRequest({
          type: ['object', 'null'],
          description: 'May hold service, errorCode, userCode, crProcessId, createdAtFrom, createdAtTo (docs/interface.md#sessions-and-logs).',
          properties: {
            service: { type: 'string' },
            errorCode: { type: 'string' },
            userCode: { type: 'string' },
            crProcessId: { type: 'integer', format: 'int64' },
            createdAtFrom: { type: 'string', format: 'date-time' },
            createdAtTo: { type: 'string', format: 'date-time' },
          },
        }),
      },
      ok: { status: 200, schema: sources.ref('ExceptionEntryPage'), description: 'One page of entries.' },
    }),
  }),
} as const satisfies OperationTable;
