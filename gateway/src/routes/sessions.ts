import { Router, type Request } from 'express';
import type { TokenService } from '@platform/libs/auth/jwt.ts';
import { DomainError, invalidField } from '@platform/libs/errors/domain-error.ts';
import type { PageMeta } from '@platform/libs/gen/platform/common/v1/common.ts';
import { ExceptionLogServiceService, type ExceptionEntry } from '@platform/libs/gen/platform/core/v1/exception_log.ts';
import { SessionServiceService, type Session } from '@platform/libs/gen/platform/core/v1/session.ts';
import { toMetadata } from '@platform/libs/grpc/metadata.ts';
import { languageFromHeader } from '@platform/libs/i18n/messages.ts';
import type { Backends } from '../backends.ts';
import { asObject, pageRequestFromJson } from '../http/record-json.ts';
import { header } from './crud.ts';

const SESSION_FIELDS = ['sessionId', 'userCode', 'userProcessId', 'accountNo', 'crProcessId', 'ipAddress', 'userAgent', 'projectCode', 'loginAt', 'lastSeenAt', 'expiresAt', 'logoutAt', 'active'] as const;
const EXCEPTION_FIELDS = ['refId', 'service', 'errorCode', 'message', 'path', 'method', 'userCode', 'crProcessId', 'projectCode', 'stack', 'createdAt'] as const;

/** A proto message as JSON with every field present (null where unset). */
function withNulls<T extends object>(message: T, fields: readonly string[]): Record<string, unknown> {
  const record = message as Record<string, unknown>;
  return Object.fromEntries(fields.map((name) => [name, record[name] ?? null]));
}

const sessionJson = (session: Session) => withNulls(session, SESSION_FIELDS);
const exceptionJson = (entry: ExceptionEntry) => withNulls(entry, EXCEPTION_FIELDS);

function page(content: Record<string, unknown>[], meta: PageMeta | undefined) {
  return { content, page: meta?.page ?? 0, size: meta?.size ?? 0, totalElements: meta?.totalElements ?? 0, totalPages: meta?.totalPages ?? 0, first: meta?.first ?? true, last: meta?.last ?? true, empty: meta?.empty ?? true };
}

function queryString(req: Request, name: string): string | undefined {
  const value = req.query[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
  return value;
}

function queryInt(req: Request, name: string): number | undefined {
  const value = queryString(req, name);
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d{1,9}$/.test(value)) throw new DomainError('SVC-SYS-2001', 'param.invalid', { param: name });
  return Number(value);
}

/**
 * The API-key endpoints of sessions and exception logs (platform-interface.md §4.4,
 * decisions.md §7): translated to core's SessionService and ExceptionLogService, called with the
 * internal credential once the gateway has checked the API key.
 */
export function sessionRoutes(backends: Backends, tokens: TokenService): Router {
  const router = Router({ caseSensitive: true });
  const internal = (req: Request) =>
    toMetadata({
      token: tokens.internalToken('gateway'),
      lang: languageFromHeader(req.headers['accept-language']) ?? 'en',
      projectCode: header(req, 'x-project-code'),
      httpPath: req.originalUrl.slice(0, 1000),
      httpMethod: req.method,
    });
  const session = <Res>(method: string, request: unknown, req: Request) => backends.call<Res>('core', SessionServiceService, method, request, internal(req));
  const logs = <Res>(method: string, request: unknown, req: Request) => backends.call<Res>('core', ExceptionLogServiceService, method, request, internal(req));

  router.get('/api/session/active', async (req, res) => {
    const { sessions } = await session<{ sessions: Session[] }>('listActiveSessions', {}, req);
    res.json(sessions.map(sessionJson));
  });
  router.post('/api/session/active/list', async (req, res) => {
    const response = await session<{ content: Session[]; meta?: PageMeta }>('pageActiveSessions', { page: pageRequestFromJson(req.body) }, req);
    res.json(page(response.content.map(sessionJson), response.meta));
  });
  router.get('/api/session/history/list', async (req, res) => {
    const request = {
      page: queryInt(req, 'page'),
      size: queryInt(req, 'size'),
      userCode: queryString(req, 'userCode') || undefined,
      from: queryString(req, 'from') || undefined,
      to: queryString(req, 'to') || undefined,
    };
    const response = await session<{ content: Session[]; meta?: PageMeta }>('pageSessionHistory', request, req);
    res.json(page(response.content.map(sessionJson), response.meta));
  });
  router.get('/api/session/stats', async (req, res) => {
    res.json(await session('getSessionStats', {}, req));
  });
  router.get('/api/session/:sessionId', async (req, res) => {
    res.json(sessionJson(await session<Session>('getSession', { sessionId: req.params.sessionId }, req)));
  });
  router.post('/api/session', async (req, res) => {
    const body = asObject(req.body);
    const allowed = new Set(['userCode', 'accountNo', 'ipAddress', 'userAgent', 'expiresAt']);
    for (const [name, value] of Object.entries(body)) {
      if (!allowed.has(name)) throw invalidField(name, 'field.unknown');
      if (value !== null && typeof value !== 'string') throw invalidField(name, 'field.type', { type: 'string' });
    }
    const created = await session<Session>('createSession', Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null)), req);
    res.json(sessionJson(created));
  });
  router.put('/api/session/:sessionId', async (req, res) => {
    const body = asObject(req.body);
    const request: { sessionId: string; expiresAt?: string; active?: boolean } = { sessionId: req.params.sessionId ?? '' };
    for (const [name, value] of Object.entries(body)) {
      if (name === 'expiresAt' && typeof value === 'string') request.expiresAt = value;
      else if (name === 'active' && typeof value === 'boolean') request.active = value;
      else if (name === 'expiresAt' || name === 'active') throw invalidField(name, 'field.type', { type: name === 'active' ? 'boolean' : 'string' });
      else throw invalidField(name, 'field.unknown');
    }
    res.json(sessionJson(await session<Session>('updateSession', request, req)));
  });

  router.get('/api/logs/exceptions/:refId', async (req, res) => {
    res.json(exceptionJson(await logs<ExceptionEntry>('getException', { refId: req.params.refId }, req)));
  });
  router.post('/api/logs/exceptions/list', async (req, res) => {
    const response = await logs<{ content: ExceptionEntry[]; meta?: PageMeta }>('listExceptions', { page: pageRequestFromJson(req.body) }, req);
    res.json(page(response.content.map(exceptionJson), response.meta));
  });
  return router;
}
