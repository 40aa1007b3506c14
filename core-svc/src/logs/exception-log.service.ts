import type { MikroORM } from '@mikro-orm/postgresql';
import { authorizeOperator, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { buildQuery, pageMeta } from '@platform/service-kit/crud/list-query.ts';
import type { ScalarField } from '@platform/kit/resource/resource.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { invalidField, notFound, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type {
  ExceptionEntry,
  GetExceptionRequest,
  ListExceptionsRequest,
  ListExceptionsResponse,
  RecordExceptionRequest,
} from '@platform/kit/gen/platform/core/v1/exception_log.ts';
import { entryOf, type ExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { ExceptionEntity } from '../db.ts';
import { isUuid } from '@platform/kit/resource/uuid.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

/** Filters of the exception list (docs/interface.md#sessions-and-logs). */
const FILTERS: ReadonlyMap<string, ScalarField> = new Map<string, ScalarField>([
  ['service', { kind: 'string', maxLength: 32 }],
  ['errorCode', { kind: 'string', maxLength: 32 }],
  ['userCode', { kind: 'string', maxLength: 64 }],
  ['crProcessId', { kind: 'long' }],
  ['createdAt', { kind: 'datetime' }],
  ['refId', { kind: 'string', maxLength: 36 }],
  ['path', { kind: 'string', maxLength: 1000 }],
  ['method', { kind: 'string', maxLength: 16 }],
  ['requestId', { kind: 'string', maxLength: 128 }],
]);

function toEntry(row: Row): ExceptionEntry {
  return {
    refId: row.refId as string,
    service: row.service as string,
    errorCode: row.errorCode as string,
    message: row.message as string,
    path: (row.path as string | null) ?? undefined,
    method: (row.method as string | null) ?? undefined,
    userCode: (row.userCode as string | null) ?? undefined,
    crProcessId: (row.crProcessId as number | null) ?? undefined,
    stack: (row.stack as string | null) ?? undefined,
    createdAt: (row.createdAt as Date).toISOString(),
    projectCode: (row.projectCode as string | null) ?? undefined,
    requestId: (row.requestId as string | null) ?? undefined,
  };
}

function rowOf(entry: ExceptionEntry): Row {
  return {
    refId: entry.refId,
    service: entry.service.slice(0, 32),
    errorCode: entry.errorCode.slice(0, 32),
    message: entry.message,
    path: entry.path ?? null,
    method: entry.method ?? null,
    userCode: entry.userCode ?? null,
    crProcessId: entry.crProcessId ?? null,
    projectCode: entry.projectCode ?? null,
    requestId: entry.requestId?.slice(0, 128) ?? null,
    stack: entry.stack ?? null,
    createdAt: new Date(),
  };
}

/** core-svc's own failures go straight into its table. */
export function databaseExceptionRecorder(orm: MikroORM, log: Logger): ExceptionRecorder {
  return (failure) => {
    const em = scopedFork(orm, { platform: 'exception-log' });
    em.insert(ExceptionEntity, rowOf(entryOf(failure))).catch((error: unknown) =>
      log.warn({ refId: failure.refId, err: error }, 'could not record an exception entry'),
    );
  };
}

/**
 * The exception log (docs/interface.md#sessions-and-logs): recorded by every part, read over the API
 * key or from the console by a live super user (authorizeOperator).
 */
export const exceptionLogHandlers = {
  async recordException(request: RecordExceptionRequest, ctx: CallContext): Promise<object> {
    if (ctx.caller.kind !== 'internal') throw unauthenticated();
    const entry = request.entry;
    if (!entry || !isUuid(entry.refId)) throw invalidField('refId');
    await ctx.em.insert(ExceptionEntity, rowOf(entry));
    return {};
  },

  async getException(request: GetExceptionRequest, ctx: CallContext): Promise<ExceptionEntry> {
    authorizeOperator(ctx);
    if (!isUuid(request.refId)) throw invalidField('refId', 'param.invalid', { param: 'refId' });
    const row = await ctx.em.findOne(ExceptionEntity, { refId: request.refId });
    if (!row) throw notFound('exception');
    return toEntry(row);
  },

  async listExceptions(request: ListExceptionsRequest, ctx: CallContext): Promise<ListExceptionsResponse> {
    authorizeOperator(ctx);
    const query = buildQuery(request.page, { fields: FILTERS, tenant: 'optional', defaultOrder: [{ createdAt: 'desc' }, { id: 'desc' }] });
    const [rows, total] = await ctx.em.findAndCount(ExceptionEntity, query.where, {
      orderBy: query.orderBy,
      limit: query.size,
      offset: query.page * query.size,
    });
    return { content: rows.map(toEntry), meta: pageMeta(query.page, query.size, total, rows.length) };
  },
};
