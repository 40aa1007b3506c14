import type { EntityManager } from '@mikro-orm/postgresql';
import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { dmsCategory } from '@platform/contracts/dms/dms-category.ts';

/**
 * dms-category: `parentKey` follows parentId (0 at the top), so that the unique key (tenant,
 * parentKey, categoryName) holds among top-level categories too. A move (an update naming a
 * parent) is refused with 400 SVC-SYS-2001 on parentId when the new parent is the category itself
 * or one of its descendants, checked over the whole ancestor chain. Moves of one tenant take a
 * transaction-scoped advisory lock on its tree first, so two moves that would together close a
 * loop (A under B, B under A) run one after the other and the second sees the first. A create
 * cannot close a loop (nothing is under a new category yet).
 */
export const dmsCategoryHooks = defineHooks(dmsCategory, {
  async beforeWrite(values, _input, ctx, mode, current) {
    if (values.parentId === undefined) return;
    values.parentKey = values.parentId ?? 0;
    if (mode === 'update' && current && values.parentId !== null) {
      await assertNotOwnAncestor(ctx.em, current.crProcessId, current.id, values.parentId);
    }
  },
});

async function assertNotOwnAncestor(em: EntityManager, crProcessId: number, id: number, parentId: number): Promise<void> {
  if (parentId === id) throw invalidField('parentId', 'category.cycle');
  await em.execute('select pg_advisory_xact_lock(hashtextextended(?, 0))', [`dms.category-tree:${crProcessId}`]);
  // `union` (not `union all`) ends the walk even on a loop that was somehow stored already
  const [loop] = await em.execute<unknown[]>(
    `with recursive up(id, parent_id) as (
       select id, parent_id from dms.dms_category where id = ? and cr_process_id = ?
       union select c.id, c.parent_id from dms.dms_category c join up on c.id = up.parent_id and c.cr_process_id = ?
     ) select 1 from up where id = ? limit 1`,
    [parentId, crProcessId, crProcessId, id],
  );
  if (loop) throw invalidField('parentId', 'category.cycle');
}
