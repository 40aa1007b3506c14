import type { Request, Response } from 'express';
import { SESSION_OPERATIONS } from '@platform/contracts/core/sessions.ts';
import type { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { pageJson } from '../http/page-json.ts';
import type { ExceptionEntry } from '@platform/kit/gen/platform/core/v1/exception_log.ts';
import type { CreateSessionRequest, Session } from '@platform/kit/gen/platform/core/v1/session.ts';
import { toMetadata } from '@platform/kit/grpc/metadata.ts';
import { languageFromHeader } from '@platform/kit/i18n/messages.ts';
import type { Backends } from '../backends.ts';
import { requestIdOf, stateOf } from '../http/context.ts';
import { asObject, pageRequestFromJson } from '../http/record-json.ts';
import { header, userMetadata } from './crud.ts';
import { callRpc } from './call-rpc.ts';
import { routerFor, type RouteGroup } from './route.ts';

/** The fields of a session as the API shows it (every one present, null where unset). */
export const SESSION_FIELDS = [
  'sessionId',
  'userCode',
  'userProcessId',
  'accountNo',
  'crProcessId',
  'ipAddress',
  'userAgent',
  'projectCode',
  'loginAt',
  'lastSeenAt',
  'expiresAt',
  'logoutAt',
  'active',
] as const;
/** The fields of an exception entry as the API shows it (every one present, null where unset). */
export const EXCEPTION_FIELDS = [
  'refId',
  'service',
  'errorCode',
  'message',
  'path',
  'method',
  'userCode',
  'crProcessId',
  'projectCode',
  'requestId',
  'stack',
  'createdAt',
] as const;

/** A proto message as JSON with every field present (null where unset). */
function withNulls<T extends object>(message: T, fields: readonly string[]): Record<string, unknown> {
  const record = message as Record<string, unknown>;
  return Object.fromEntries(fields.map((name) => [name, record[name] ?? null]));
}

const sessionJson = (session: Session) => withNulls(session, SESSION_FIELDS);
const exceptionJson = (entry: ExceptionEntry) => withNulls(entry, EXCEPTION_FIELDS);

/** The routes of the session and exception-log operations, as declared (libs/contracts/src/core/sessions.ts). */
export const SESSION_ROUTES = SESSION_OPERATIONS;

/**
 * The API-key endpoints of sessions and exception logs (docs/interface.md#sessions-and-logs):
 * translated to core's SessionService and ExceptionLogService, called with the gateway's own credential
 * once the gateway has checked the API key; a console operator call (middleware/console-operator.ts)
 * with the user's token instead, which core-svc serves only while that user is a super user.
 */
export function sessionRoutes(backends: Backends, gatewayKey: GatewayCallKey): RouteGroup {
  // the credential core-svc judges: the user token of a console operator call, else the gateway's own
  const operatorMetadata = (req: Request, res: Response) =>
    stateOf(res).token
      ? userMetadata(req, res)
      : toMetadata({
          token: gatewayKey.credential,
          lang: languageFromHeader(req.headers['accept-language']) ?? 'en',
          projectCode: header(req, 'x-project-code'),
          httpPath: req.originalUrl.slice(0, 1000),
          httpMethod: req.method,
          requestId: requestIdOf(req),
        });

  return routerFor(SESSION_ROUTES, {
    activeSessions: async (req, res) => {
      const { sessions } = await callRpc(backends, SESSION_OPERATIONS.activeSessions.rpc, {}, operatorMetadata(req, res));
      res.json(sessions.map(sessionJson));
    },
    activeSessionPage: async (req, res) => {
      const response = await callRpc(backends, SESSION_OPERATIONS.activeSessionPage.rpc, { page: pageRequestFromJson(req.body) }, operatorMetadata(req, res));
      res.json(pageJson(response.content.map(sessionJson), response.meta));
    },
    sessionHistory: async (req, res, query) => {
      const response = await callRpc(backends, SESSION_OPERATIONS.sessionHistory.rpc, query, operatorMetadata(req, res));
      res.json(pageJson(response.content.map(sessionJson), response.meta));
    },
    sessionStats: async (req, res) => {
      res.json(await callRpc(backends, SESSION_OPERATIONS.sessionStats.rpc, {}, operatorMetadata(req, res)));
    },
    // the dashboard's sessions per day (every day of the window, 0 included)
    sessionsByDay: async (req, res, query) => {
      const { days } = await callRpc(backends, SESSION_OPERATIONS.sessionsByDay.rpc, query, operatorMetadata(req, res));
      res.json(days);
    },
    getSession: async (req, res) => {
      res.json(sessionJson(await callRpc(backends, SESSION_OPERATIONS.getSession.rpc, { sessionId: req.params.sessionId ?? '' }, operatorMetadata(req, res))));
    },
    createSession: async (req, res) => {
      const body = asObject(req.body);
      const allowed = new Set(['userCode', 'accountNo', 'ipAddress', 'userAgent', 'expiresAt']);
      for (const [name, value] of Object.entries(body)) {
        if (!allowed.has(name)) throw invalidField(name, 'field.unknown');
        if (value !== null && typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
      }
      // the fields are strings now; one the request requires but the body left out is the service's to refuse
      const request = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)) as Partial<CreateSessionRequest> as CreateSessionRequest;
      const created = await callRpc(backends, SESSION_OPERATIONS.createSession.rpc, request, operatorMetadata(req, res));
      res.json(sessionJson(created));
    },
    updateSession: async (req, res) => {
      const body = asObject(req.body);
      const request: { sessionId: string; expiresAt?: string; active?: boolean } = { sessionId: req.params.sessionId ?? '' };
      for (const [name, value] of Object.entries(body)) {
        if (name === 'expiresAt' && typeof value === 'string') request.expiresAt = value;
        else if (name === 'active' && typeof value === 'boolean') request.active = value;
        else if (name === 'expiresAt' || name === 'active') throw invalidField(name, 'field.type', { type: name === 'active' ? 'boolean' : 'string' });
        else throw invalidField(name, 'field.unknown');
      }
      res.json(sessionJson(await callRpc(backends, SESSION_OPERATIONS.updateSession.rpc, request, operatorMetadata(req, res))));
    },
    getException: async (req, res) => {
      res.json(exceptionJson(await callRpc(backends, SESSION_OPERATIONS.getException.rpc, { refId: req.params.refId ?? '' }, operatorMetadata(req, res))));
    },
    exceptionPage: async (req, res) => {
      const response = await callRpc(backends, SESSION_OPERATIONS.exceptionPage.rpc, { page: pageRequestFromJson(req.body) }, operatorMetadata(req, res));
      res.json(pageJson(response.content.map(exceptionJson), response.meta));
    },
  });
}
