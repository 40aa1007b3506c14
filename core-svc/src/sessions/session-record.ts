import type { EntityManager } from '@mikro-orm/postgresql';
import { actorOf, authorizeOperator, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { invalidField, notFound } from '@platform/kit/errors/domain-error.ts';
import type { GetSessionRequest, Session, UpdateSessionRequest } from '@platform/kit/gen/platform/core/v1/session.ts';
import { isUuid } from '@platform/kit/resource/uuid.ts';
import { SessionEntity } from '../db.ts';
import { endSession } from './session-ended.ts';
import { toSession } from './session-view.ts';

async function findSession(em: EntityManager, sessionId: string): Promise<Row> {
  if (!isUuid(sessionId)) throw invalidField('sessionId', 'param.invalid', { param: 'sessionId' });
  const row = await em.findOne(SessionEntity, { sessionId });
  if (!row) throw notFound('session');
  return row;
}

/** SessionService.GetSession: one session by its id. */
export async function getSession(request: GetSessionRequest, ctx: CallContext): Promise<Session> {
  authorizeOperator(ctx);
  return toSession(await findSession(ctx.em, request.sessionId));
}

/**
 * SessionService.UpdateSession: `active: false` ends an open session with its event, `active: true`
 * opens it again, and `expiresAt` moves its end.
 */
export async function updateSession(request: UpdateSessionRequest, ctx: CallContext): Promise<Session> {
  authorizeOperator(ctx);
  const row = await findSession(ctx.em, request.sessionId);
  if (request.active === false && row.active === true) {
    // ended with its event (session-ended.ts), then read again as ended
    await endSession(ctx.em, request.sessionId, actorOf(ctx));
    await ctx.em.refresh(row);
  }
  if (request.expiresAt !== undefined) row.expiresAt = toRowValue('expiresAt', { kind: 'datetime' }, request.expiresAt);
  if (request.active === true && row.active !== true) {
    row.active = true;
    row.logoutAt = null;
  }
  await ctx.em.flush();
  return toSession(row);
}
