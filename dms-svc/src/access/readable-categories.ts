import type { EntityManager } from '@mikro-orm/postgresql';
import { isSuperUser, type CallContext } from '@platform/service-kit/auth/caller.ts';

/**
 * The categories of a tenant whose files the caller may not read
 * (docs/adr/0160-a-category-s-read-role.md): those that name a `readRole` the caller does not hold
 * now, and every category below one of them. A role is held as the live access holds it
 * (libs/service-kit/src/auth/access.ts): a row of `core.user_tenant_role` for the caller in the
 * tenant, and, for a personal access token, the role among the token's own (its session's
 * `scope`). One statement, read live on every call: a role given or taken counts at the very next
 * request. The walk down follows `parent_key` (the parent's id, 0 at the top), the leading column
 * after the tenant of the category's unique key, so each step is an index probe; `union` ends it
 * even on a loop somehow stored. A super user and another platform service read every file: [].
 *
 * @example
 * const hidden = await unreadableCategoryIds(ctx.em, ctx, 1001); // [12, 15]: 12 names hr:read, 15 lies below it
 * const rows = await ctx.em.execute(
 *   `select id from dms.dms_file where cr_process_id = ? and not deleted and ${fileCategoryReadable('category_id', '?')}`,
 *   [1001, categoryIdArray(hidden)],
 * );
 */
export async function unreadableCategoryIds(em: EntityManager, ctx: CallContext, crProcessId: number): Promise<number[]> {
  if (ctx.caller.kind !== 'user' || isSuperUser(ctx)) return [];
  const { userCode, sid } = ctx.caller.claims;
  const rows = await em.execute<{ id: string }[]>(
    `with recursive denied(id) as (
       select c.id from dms.dms_category c
        where c.cr_process_id = ? and c.read_role is not null
          and (not exists (select 1 from core.user_tenant_role r
                            where r.user_code = ? and r.cr_process_id = c.cr_process_id and r.role_code = c.read_role)
               or exists (select 1 from core.session_log s
                           where s.session_id = ? and s.scope is not null and not (c.read_role = any(s.scope))))
       union
       select c.id from dms.dms_category c join denied d on c.cr_process_id = ? and c.parent_key = d.id
     ) select id from denied order by id`,
    [crProcessId, userCode, sid, crProcessId],
  );
  return rows.map((row) => Number(row.id));
}

/**
 * An SQL condition that a file's category, `column`, is not among the unreadable ones: the array
 * `param` holds (a placeholder, `?` or `$n`, given `categoryIdArray`'s value). A file without a
 * category is read by dms-file:read alone.
 *
 * @example
 * fileCategoryReadable('f.category_id', '$2') // (f.category_id is null or f.category_id <> all($2::bigint[]))
 */
export function fileCategoryReadable(column: string, param: string): string {
  return `(${column} is null or ${column} <> all(${param}::bigint[]))`;
}

/**
 * The value of fileCategoryReadable's parameter: PostgreSQL's array literal of the ids, which both
 * the pg driver and MikroORM's `?` pass as one text value (a JS array would be spread by knex).
 *
 * @example
 * categoryIdArray([12, 15]) // '{12,15}'
 */
export function categoryIdArray(ids: readonly number[]): string {
  return `{${ids.map((id) => String(Math.trunc(id))).join(',')}}`;
}
