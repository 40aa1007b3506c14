import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import type { TokenService } from '@platform/kit/auth/jwt.ts';
import { invalidField, unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { RecordSessionsSeenRequest } from '@platform/kit/gen/platform/core/v1/session.ts';
import { isUuid } from '@platform/kit/resource/uuid.ts';

/** Sessions one RecordSessionsSeen call may carry. */
const MAX_SEEN = 10_000;

/**
 * SessionService.RecordSessionsSeen, the gateway's own bookkeeping (internal callers only): each
 * session's lastSeenAt moved to when the gateway last saw it. The gateway sends the tokens it
 * handed on, unverified (docs/adr/0138-an-edge-without-the-signing-secret.md): the session of a
 * token that verifies (its sid) moves, and a session id beside it counts for nothing, so a forged
 * token naming another user's session moves none. Another internal caller may name sessions by id.
 * Entries without a verified token or a session id, or without a time, are skipped.
 */
export function recordSessionsSeen(tokens: TokenService): (request: RecordSessionsSeenRequest, ctx: CallContext) => Promise<object> {
  return async (request, ctx) => {
    if (ctx.caller.kind !== 'internal') throw unauthenticated();
    if (request.seen.length > MAX_SEEN) throw invalidField('seen', 'field.outOfRange');
    const byId = ctx.caller.service !== 'gateway';
    const seen = request.seen.flatMap(({ sessionId, token, seenAt }) => {
      const at = new Date(seenAt);
      const sid = token ? tokens.verifyUser(token)?.sid : byId ? sessionId : undefined;
      return sid !== undefined && isUuid(sid) && !Number.isNaN(at.getTime()) ? [{ sid, t: at.toISOString() }] : [];
    });
    return record(seen, ctx);
  };
}

async function record(seen: { sid: string; t: string }[], ctx: CallContext): Promise<object> {
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
