import type { PolicyDef } from '@mikro-orm/core';
import { TENANT_FROM_SETTING, TENANT_TO_SETTING, TENANTS_SETTING, USER_SETTING } from './tenant-scope.ts';

/**
 * The row-level security policy of every table with a tenant column
 * (docs/adr/0151-row-level-security-the-second-wall.md), declared on its entity so that the
 * migrations follow from it (test/schema-drift.test.ts) and test/row-security.test.ts finds no
 * tenant table without it: a row is seen and written only in a transaction whose
 * `platform.tenant_from` and `platform.tenant_to` hold its cr_process_id between them (one tenant,
 * or every one on the platform's path). Unset or empty, they name no row.
 *
 * A range, not an `or`, and read by a stable expression, not a sub-select
 * (docs/adr/0158-the-tenant-wall-as-an-index-condition.md): both comparisons join the query's own
 * `cr_process_id = …` in the index condition of the tenant's index, which costs nothing per row,
 * and the planner estimates them from the settings' values, so it picks the plan it picks without
 * the wall. Written as PostgreSQL gives it back (`pg_policies.qual`), so that the schema diff finds
 * no change in it.
 */
export const TENANT_RANGE =
  `cr_process_id >= (nullif(current_setting('${TENANT_FROM_SETTING}', true), ''))::bigint` +
  ` and cr_process_id <= (nullif(current_setting('${TENANT_TO_SETTING}', true), ''))::bigint`;

/**
 * The identity tables' tenant condition, beside their own additions (core's `entitySchemas`): a
 * row is visible when `platform.tenants` is `*` or an array naming its cr_process_id. Each setting
 * is read once per statement (a sub-select: an InitPlan), not once per row.
 */
export const TENANT_VISIBLE = tenantVisible('cr_process_id');

/** The scope's condition on a tenant column of another name or table (`m.cr_process_id` in a policy's sub-select). */
export function tenantVisible(column: string): string {
  return `(select current_setting('${TENANTS_SETTING}', true) = '*') or ${column} = any (${scopeTenants()})`;
}

/** The caller's userCode, read once per statement. */
export const CALLER = `(select current_setting('${USER_SETTING}', true))`;

/**
 * The scope's tenants as an array (`*` and anything but an array literal: none), read once per
 * statement. Written as PostgreSQL gives it back (`pg_policies.qual`: the cast after the
 * sub-select, the alias it names a CASE by), so that the schema diff finds no change in it.
 */
export function scopeTenants(): string {
  return `(select case when current_setting('${TENANTS_SETTING}', true) ~ '^[{][0-9,]*[}]$' then current_setting('${TENANTS_SETTING}', true) else '{}' end as "case")::bigint[]`;
}

/** The caller's own rows (`platform.user` is its userCode), for a table with a user_code. */
export const OWN_ROW = `user_code = ${CALLER}`;

/**
 * The policy `tenant_wall`: TENANT_RANGE; with `also` (a table's own additions, each an SQL
 * condition on its row), TENANT_VISIBLE or any of those.
 *
 * @example
 * new EntitySchema({ ..., policies: tenantWall(OWN_ROW) })
 */
export function tenantWall(...also: string[]): PolicyDef[] {
  return [{ name: 'tenant_wall', using: also.length === 0 ? TENANT_RANGE : [TENANT_VISIBLE, ...also].join(' or ') }];
}

/**
 * The policy `tenant_wall` of a table whose tenant column may be null (core's exception log: a
 * failure met before any tenant was known), TENANT_VISIBLE alone: the platform's path (`*`) sees and
 * writes such a row, which TENANT_RANGE would hide and refuse (null is in no range).
 */
export function tenantWallWithNulls(): PolicyDef[] {
  return [{ name: 'tenant_wall', using: TENANT_VISIBLE }];
}
