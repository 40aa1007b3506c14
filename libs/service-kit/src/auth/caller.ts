import type { EntityManager } from '@mikro-orm/postgresql';
import { forbidden, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { Language } from '@platform/kit/i18n/messages.ts';
import type { LiveAccess } from './access.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';

/**
 * Who makes a call: a user with a verified token and the access it has now (read live for the
 * call), or another platform service.
 */
export type Caller = { kind: 'user'; claims: VerifiedClaims; access: LiveAccess } | { kind: 'internal'; service: string };

/** Everything a handler knows of its call: its own forked EntityManager and the caller. */
export interface CallContext {
  em: EntityManager;
  caller: Caller;
  lang: Language;
  /** X-Project-Code, when the client sent one. */
  projectCode: string | undefined;
  /** The client behind the call, as the gateway judged it (for audit rows); absent for other callers. */
  client?: { ipAddress: string | undefined; userAgent: string | undefined };
  /** The Idempotency-Key the gateway handed on, for a create (idempotency/idempotency.ts). */
  idempotencyKey?: string | undefined;
  /** Marks the answer as a replay of a stored one (the `idempotent-replayed` response metadata). */
  markReplayed?(): void;
  /** The row read in the same statement as the caller's access (crud/key-read.ts `readAlong`). */
  along?: RowAlong;
}

/** A row read along with the live access: which read, for which key, and the raw row it returned. */
export interface RowAlong {
  name: string;
  key: unknown;
  raw: Record<string, unknown>;
}

/** The user behind a call; internal callers have none (401). */
export function userOf(ctx: CallContext): VerifiedClaims {
  if (ctx.caller.kind !== 'user') throw unauthenticated();
  return ctx.caller.claims;
}

/** A super user now (the live flag, not the token's claim). */
export function isSuperUser(ctx: CallContext): boolean {
  return ctx.caller.kind === 'user' && ctx.caller.access.superUser;
}

/** The userCode recorded in createdBy / updatedBy. */
export function actorOf(ctx: CallContext): string {
  return ctx.caller.kind === 'user' ? ctx.caller.claims.userCode : `svc:${ctx.caller.service}`;
}

/**
 * Passes when the caller holds `role` in its current tenant, is a super user, or is another platform
 * service acting on the platform's behalf; else 403 SVC-SYS-1003. A user's access is read for the
 * roles its call asked for (grpc/requiring.ts): checking another is a defect, not a refusal, and
 * fails the call as one (500), super user or not, so that a test of any caller finds it.
 */
export function authorize(ctx: CallContext, role: string): void {
  if (!allows(ctx, role)) throw forbidden();
}

/**
 * Whether the caller holds `role` now, without refusing the call: for what a call shows beside its
 * own records (an audit row's file name needs the file's read role). Internal callers and super
 * users do. As for `authorize`, the role must be one the call's access was read for.
 */
export function allows(ctx: CallContext, role: string): boolean {
  if (ctx.caller.kind === 'internal') return true;
  const { access } = ctx.caller;
  if (!access.asked.has(role)) throw new Error(`role ${role} checked, but the call's access was read for ${[...access.asked].join(', ') || 'no role'}`);
  return holds(access, role);
}

/**
 * Passes an operator's call (sessions, the exception log:
 * docs/adr/0085-the-console-operator-paths.md): another platform service (the gateway, once it has checked the API key) or a user who is
 * a super user now (the live flag, not the token's claim: a demotion counts at the next call); any
 * other user is refused with 403 SVC-SYS-1003.
 */
export function authorizeOperator(ctx: CallContext): void {
  if (ctx.caller.kind === 'user' && !ctx.caller.access.superUser) throw forbidden();
}

/** Whether a user's live access allows `role`: a super user holds every role, another user those read for its tenant. */
export function holds(access: LiveAccess, role: string): boolean {
  return access.superUser || access.roles.has(role);
}

/**
 * The tenant a non-super user may touch: its token's crProcessId, while the user still holds it
 * (else 403 SVC-SYS-1003: a select removed or an account made passive ends access at once). Super
 * users and internal callers may name any tenant (undefined: no restriction).
 */
export function tenantScope(ctx: CallContext): number | undefined {
  if (ctx.caller.kind === 'internal' || ctx.caller.access.superUser) return undefined;
  if (!ctx.caller.access.tenantHeld) throw forbidden();
  return ctx.caller.claims.crProcessId;
}

/** 403 SVC-SYS-1003 when the caller may not name `crProcessId` (create, list). */
export function assertTenant(ctx: CallContext, crProcessId: number): void {
  const scope = tenantScope(ctx);
  if (scope !== undefined && scope !== crProcessId) throw forbidden();
}
