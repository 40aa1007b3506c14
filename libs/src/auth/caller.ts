import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, unauthenticated } from '../errors/domain-error.ts';
import type { Language } from '../i18n/messages.ts';
import type { VerifiedClaims } from './jwt.ts';

/** Who makes a call: a user with a verified token, or another platform service. */
export type Caller = { kind: 'user'; claims: VerifiedClaims } | { kind: 'internal'; service: string };

/**
 * The roles a user holds in a tenant (decisions.md §2). Each service supplies one; it is asked at
 * most once per call.
 */
export type RoleSource = (em: EntityManager, userCode: string, crProcessId: number) => Promise<ReadonlySet<string>>;

/** Everything a handler knows of its call: its own forked EntityManager and the caller. */
export interface CallContext {
  em: EntityManager;
  caller: Caller;
  lang: Language;
  /** X-Project-Code, when the client sent one. */
  projectCode: string | undefined;
  /** The roles of the user in its current tenant, loaded on first use. */
  roles(): Promise<ReadonlySet<string>>;
}

/** The user behind a call; internal callers have none (401). */
export function userOf(ctx: CallContext): VerifiedClaims {
  if (ctx.caller.kind !== 'user') throw unauthenticated();
  return ctx.caller.claims;
}

export function isSuperUser(ctx: CallContext): boolean {
  return ctx.caller.kind === 'user' && ctx.caller.claims.superUser;
}

/** The userCode recorded in createdBy / updatedBy. */
export function actorOf(ctx: CallContext): string {
  return ctx.caller.kind === 'user' ? ctx.caller.claims.userCode : `svc:${ctx.caller.service}`;
}

/**
 * Passes when the caller holds `role` in its current tenant, is a super user, or is another platform
 * service acting on the platform's behalf; else 403 SVC-SYS-1003.
 */
export async function authorize(ctx: CallContext, role: string): Promise<void> {
  if (ctx.caller.kind === 'internal' || ctx.caller.claims.superUser) return;
  const roles = await ctx.roles();
  if (!roles.has(role)) throw forbidden();
}

/**
 * The tenant a non-super user may touch: its token's crProcessId. Super users and internal callers
 * may name any tenant (undefined: no restriction).
 */
export function tenantScope(ctx: CallContext): number | undefined {
  if (ctx.caller.kind === 'internal' || ctx.caller.claims.superUser) return undefined;
  return ctx.caller.claims.crProcessId;
}

/** 403 SVC-SYS-1003 when the caller may not name `crProcessId` (create, list). */
export function assertTenant(ctx: CallContext, crProcessId: number): void {
  const scope = tenantScope(ctx);
  if (scope !== undefined && scope !== crProcessId) throw forbidden();
}

