import type { EntityManager } from '@mikro-orm/postgresql';
import type { userInfo } from '@platform/contracts/core/user-info.ts';
import type { VerifiedClaims } from '@platform/kit/auth/jwt.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { SessionEntity, UserInfoEntity } from '../db.ts';

/**
 * The user and session rows behind a token. Every call has already been found live (the user
 * active with the token's tokenVersion, the session its own, open and unexpired: libs/service-kit/src/auth/
 * access.ts); rows gone since then are 401 too.
 */
export async function sessionOf(em: EntityManager, claims: VerifiedClaims): Promise<{ user: RowOf<typeof userInfo>; session: Row }> {
  const user = await em.findOne(UserInfoEntity, { userCode: claims.userCode });
  const session = await em.findOne(SessionEntity, { sessionId: claims.sid, userCode: claims.userCode });
  if (!user || !session) throw unauthenticated();
  return { user, session };
}
