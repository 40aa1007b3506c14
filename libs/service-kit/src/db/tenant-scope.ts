import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import { rowSecurityOf } from '../config/row-security.ts';

/**
 * Whose rows a unit of database work sees, the second wall behind every query's own tenant filter
 * (docs/adr/0151-row-level-security-the-second-wall.md): the services connect as a role that the
 * tables' row-level security policies apply to, and each transaction says its scope in
 * transaction-local settings, which the policies read:
 *
 * - `platform.tenant_from` and `platform.tenant_to`: the range of tenant ids it may touch, one
 *   tenant (`5` and `5`) or every one (the whole bigint range), which the tenant tables' policy
 *   compares the row's cr_process_id with (docs/adr/0158-the-tenant-wall-as-an-index-condition.md);
 * - `platform.tenants`: the same scope as the identity tables' policies read it, `*` for every
 *   tenant, else the array of its tenant (`{5}`);
 * - `platform.user`: the caller's userCode, whose own identity rows (user_info, session_log,
 *   user_process) it sees in any tenant.
 *
 * A connection that set neither sees no tenant's row: work that forgets its scope finds nothing,
 * it never finds too much.
 */
export type Scope = TenantScope | PlatformScope;

/**
 * A user's work: the tenant its live access holds (none when it holds none), and its own identity
 * rows; or work for one tenant's record without a user (an upload's own checks). At most one tenant:
 * the policy holds a row to one tenant or to all (docs/adr/0158-the-tenant-wall-as-an-index-condition.md).
 */
export interface TenantScope {
  tenants: readonly [] | readonly [number];
  user?: string;
}

/** Work across every tenant, on the platform's own path, always for a named reason. */
export interface PlatformScope {
  platform: PlatformPurpose;
}

/**
 * Every reason the platform reads or writes across tenants: the only way past the wall, each named
 * here and counted (db_all_tenants_scopes_total{purpose}) when a unit of work takes it.
 */
export const PLATFORM_PURPOSES = {
  'super-user': 'a call of a user whose live access says super user: any tenant, by the rules of decisions.md §2',
  'internal-call': 'a call of another platform service or of the gateway as itself (login, sessions, sign-in)',
  authentication: "a token's user, session and access read before its caller is known",
  identity:
    "a user's own sign-in state across its tenants (core's AuthService: me, switch-account, change-password, logout), keyed by the caller's own userCode",
  bootstrap: 'the first start creating the default account and its administrator',
  job: 'a background job of the queue (sweeps, retention), which works through every tenant',
  webhooks: "the dispatcher delivering every tenant's events",
  'exception-log': 'recording an unexpected failure, whoever met it',
  'public-share': 'a share link opened by anyone holding it, without a login',
  'signed-download': 'a download URL whose signature names the file',
  uploads: "a resumable upload's own bookkeeping (its lock and its expiry)",
} as const;

export type PlatformPurpose = keyof typeof PLATFORM_PURPOSES;

/** The settings the policies read (the migrations' `tenant_wall`). */
export const TENANTS_SETTING = 'platform.tenants';
export const USER_SETTING = 'platform.user';
export const TENANT_FROM_SETTING = 'platform.tenant_from';
export const TENANT_TO_SETTING = 'platform.tenant_to';

/** The scope's settings, by name, as `set_config` is given them. */
export type ScopeSettings = Record<typeof TENANTS_SETTING | typeof USER_SETTING | typeof TENANT_FROM_SETTING | typeof TENANT_TO_SETTING, string>;

/** Every tenant id: the range of a platform scope. */
const EVERY_TENANT = { from: '-9223372036854775808', to: '9223372036854775807' } as const;

/** How many units of work took each platform purpose in this process (db_all_tenants_scopes_total). */
const platformScopes = new Map<PlatformPurpose, number>();

/** The platform purposes taken so far, with how often. */
export function platformScopeRuns(): ReadonlyMap<PlatformPurpose, number> {
  return platformScopes;
}

/** The settings' values for `scope`: what `set_config` is given, per transaction. No tenant: an empty range (`''`), which names no row. */
export function scopeSettings(scope: Scope): ScopeSettings {
  if ('platform' in scope) {
    platformScopes.set(scope.platform, (platformScopes.get(scope.platform) ?? 0) + 1);
    return { [TENANTS_SETTING]: '*', [USER_SETTING]: '', [TENANT_FROM_SETTING]: EVERY_TENANT.from, [TENANT_TO_SETTING]: EVERY_TENANT.to };
  }
  // the type says at most one; a caller past the type must not widen the range
  if (scope.tenants.length > 1) throw new Error(`a tenant scope of ${scope.tenants.length} tenants: at most one`);
  const [tenant] = scope.tenants;
  if (tenant !== undefined && !Number.isSafeInteger(tenant)) throw new Error(`a tenant scope of ${String(tenant)}`);
  const id = tenant === undefined ? '' : String(tenant);
  return { [TENANTS_SETTING]: `{${id}}`, [USER_SETTING]: scope.user ?? '', [TENANT_FROM_SETTING]: id, [TENANT_TO_SETTING]: id };
}

/**
 * A fork of the ORM's EntityManager whose every statement runs in `scope`: MikroORM applies the
 * settings with `set_config(..., true)` at each transaction's begin, and wraps a statement outside
 * one in a short transaction of its own to do so (its session context). The one way the services
 * make an EntityManager for work.
 *
 * @example
 * const em = scopedFork(orm, { platform: 'job' });
 * await em.nativeDelete(Expired, { expiresAt: { $lt: new Date() } });
 */
export function scopedFork(orm: MikroORM | EntityManager, scope: Scope): EntityManager {
  const root = 'em' in orm ? orm.em : orm;
  const em = root.fork();
  if (scoping()) em.setSessionContext({ variables: scopeSettings(scope) });
  return em;
}

/** Whether work is scoped at all (config/row-security.ts: off only for a benchmark's baseline); read once. */
let scopes: boolean | undefined;
export function scoping(): boolean {
  scopes ??= rowSecurityOf() === 'on';
  return scopes;
}

/** The settings an EntityManager's statements run under (its session context), or undefined when it has none. */
export function settingsOf(em: EntityManager): Record<string, string> | undefined {
  return em.getSessionContext()?.variables as Record<string, string> | undefined;
}
