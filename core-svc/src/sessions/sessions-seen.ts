import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { invalidField, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { RecordSessionsSeenRequest } from '@platform/kit/gen/platform/core/v1/session.ts';
import { isUuid } from '@platform/kit/resource/uuid.ts';

/** Sessions one RecordSessionsSeen call may carry. */
const MAX_SEEN = 10_000;

/**
 * SessionService.RecordSessionsSeen, the gateway's own bookkeeping (the internal credential only):
 * each session's lastSeenAt moved to when the gateway last saw it. Entries that are not a session id
 * and a time are skipped.
 */
export async function recordSessionsSeen(request: RecordSessionsSeenRequest, ctx: CallContext): Promise<object> {
  if (ctx.caller.kind !== 'internal') throw unauthenticated();
  if (request.seen.length > MAX_SEEN) throw invalidField('seen', 'field.outOfRange');
  const seen = request.seen.flatMap(({ sessionId, seenAt }) => {
    const at = new Date(seenAt);
    return isUuid(sessionId) && !Number.isNaN(at.getTime()) ? [{ sid: sessionId, t: at.toISOString() }] : [];
  });
  if (seen.length === 0) return {};
  // Only forward, never past now, and only while the session is open.
  await ctx.em.execute(
    `update core.session_log s set last_seen_at = least(k.t, now())
       from json_to_recordset(?::json) as k(sid uuid, t timestamptz)
      where s.session_id = k.sid and s.active and s.expires_at > now() and k.t > s.last_seen_at`,
    [JSON.stringify(seen)],
  );
  return {};
}
