import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { SCHEMA } from './schema.ts';
import { tenantWall } from '@platform/service-kit/db/tenant-wall.ts';

/**
 * A personal access token (docs/adr/0134-scoped-personal-access-tokens.md): its public id, the
 * SHA-256 of its secret (never the secret), its owner, tenant and roles, and the session it owns
 * (`core.session_log`, whose `scope` holds the same roles): the token's expiry is that session's,
 * and revoking it ends that session, so the live access every service reads refuses it at once.
 * Last use is noted at most once a minute per service process (libs/service-kit/src/auth/access-token.ts). Beside db.ts, which lists it, so that core-svc/src/access-tokens/ imports db.ts and not the other way.
 */
export const AccessTokenEntity = new EntitySchema<Row>({
  name: 'AccessToken',
  tableName: 'access_token',
  policies: tenantWall(),
  schema: SCHEMA,
  properties: {
    tokenId: { type: 'string', length: 32, primary: true },
    sessionId: { type: 'uuid', unique: 'access_token_session_id_unique' },
    secretHash: { type: 'string', length: 64 },
    name: { type: 'string', length: 100 },
    userCode: { type: 'string', length: 64, index: 'access_token_user_code_index' },
    crProcessId: { type: new BigIntType('number'), index: 'access_token_cr_process_id_index' },
    accountNo: { type: 'string', length: 64 },
    roles: { type: 'text[]' },
    tokenVersion: { type: 'integer' },
    createdAt: { type: 'datetime', columnType: 'timestamptz' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz' },
    revokedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    revokedBy: { type: 'string', length: 64, nullable: true },
    lastUsedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastUsedIp: { type: 'string', length: 64, nullable: true },
  } as never,
});
