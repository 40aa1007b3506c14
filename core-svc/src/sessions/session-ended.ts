import type { EntityManager } from '@mikro-orm/postgresql';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';

/**
 * Ends an open session (logout, or `active: false` over the API key) and writes its
 * `session.ended` event in the same transaction: entity `session`, key the session id, in the
 * session's tenant, with `active` and `logoutAt` from/to. A session already ended changes nothing
 * and writes nothing. True when it was open.
 */
export async function endSession(em: EntityManager, sessionId: string, actor: string): Promise<boolean> {
  return em.transactional(async (tx) => {
    const [ended] = await tx.execute<{ cr_process_id: string; logout_at: Date | string }[]>(
      `update core.session_log set active = false, logout_at = now() where session_id = ? and active returning cr_process_id, logout_at`,
      [sessionId],
    );
    if (!ended) return false;
    await recordEvent(tx, {
      type: 'session.ended',
      crProcessId: Number(ended.cr_process_id),
      key: sessionId,
      actor,
      changes: { active: { from: true, to: false }, logoutAt: { from: null, to: new Date(ended.logout_at).toISOString() } },
    });
    return true;
  });
}
