import { randomUUID } from 'node:crypto';
import { authorizeOperator, type CallContext } from '@platform/service-kit/auth/caller.ts';
import type { CoreConfig } from '../config.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import type { CreateSessionRequest, Session } from '@platform/kit/gen/platform/core/v1/session.ts';
import { SessionEntity, UserInfoEntity, UserProcessEntity } from '../db.ts';
import { heldTenant } from '../resources/user-process/user-tenants.ts';
import { toSession } from './session-view.ts';

/**
 * SessionService.CreateSession: a session opened for a user in a tenant it holds, without a login;
 * it lasts the token lifetime unless `expiresAt` says otherwise.
 */
export function createSession(config: CoreConfig): (request: CreateSessionRequest, ctx: CallContext) => Promise<Session> {
  return async (request, ctx) => {
    authorizeOperator(ctx);
    if (!request.userCode) throw invalidField('userCode', 'field.required');
    if (!request.accountNo) throw invalidField('accountNo', 'field.required');
    const user = await ctx.em.findOne(UserInfoEntity, { userCode: request.userCode });
    const process = user && (await ctx.em.findOne(UserProcessEntity, { userCode: request.userCode }));
    if (!user || !process) throw invalidField('userCode', 'field.reference');
    // a tenant the user holds now (docs/interface.md#identity), as login and switch-account require
    const account = await heldTenant(ctx.em, request.userCode, request.accountNo);
    if (!account) throw invalidField('accountNo', 'field.reference');
    const now = new Date();
    const expiresAt = request.expiresAt
      ? (toRowValue('expiresAt', { kind: 'datetime' }, request.expiresAt) as Date)
      : new Date(now.getTime() + config.jwtTtlSeconds * 1000);
    const row = ctx.em.create(SessionEntity, {
      sessionId: randomUUID(),
      userCode: user.userCode,
      userProcessId: process.id,
      accountNo: account.accountNo,
      crProcessId: account.crProcessId,
      ipAddress: request.ipAddress?.slice(0, 64) ?? null,
      userAgent: request.userAgent?.slice(0, 1000) ?? null,
      projectCode: ctx.projectCode?.slice(0, 100) ?? null,
      loginAt: now,
      lastSeenAt: now,
      expiresAt,
      active: true,
    } as Row);
    await ctx.em.flush();
    return toSession(row);
  };
}
