/**
 * The tables of the second factor (docs/adr/0127-a-second-factor-for-password-logins.md): a user's
 * TOTP secret, its recovery codes (hashes only) and the logins waiting for a code. They hang off
 * user_info by user_code and go with the user. Beside db.ts, which lists them and hands in user_info's
 * entity, so that neither file imports the other back.
 */
import { BigIntType, EntitySchema } from '@mikro-orm/postgresql';
import type { AnyEntity } from '@mikro-orm/core';
import type { Row } from '@platform/service-kit/db/entity-schema.ts';
import { SCHEMA } from './schema.ts';

/** user_code → user_info.user_code: the rows go with their user. */
let userInfo: EntitySchema<AnyEntity> | undefined;
const userReference = {
  kind: 'm:1',
  // lazily: db.ts hands user_info's entity in (secondFactorEntities) before the ORM reads these
  entity: () => userInfo as never,
  targetKey: 'userCode' as never,
  mapToPk: true,
  fieldName: 'user_code',
  deleteRule: 'cascade',
  updateRule: 'no action',
} as const;

/**
 * A user's TOTP secret: pending until a code from it is confirmed (confirmed_at). last_step is the
 * time step of the last code accepted, so that no code (nor an older one) is accepted twice.
 */
export const SecondFactorEntity = new EntitySchema<Row>({
  name: 'SecondFactor',
  tableName: 'second_factor',
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    userCode: { ...userReference, unique: 'second_factor_user_code_unique' },
    secret: { type: 'string', length: 64 },
    confirmedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    lastStep: { type: new BigIntType('number'), nullable: true },
    // wrong codes on the user's own security page, counted from wrongSince for 15 minutes (factor-store.ts)
    wrongCodes: { type: 'int', default: 0 },
    wrongSince: { type: 'datetime', columnType: 'timestamptz', nullable: true },
    createdAt: { type: 'datetime', columnType: 'timestamptz' },
  } as never,
});

/** One recovery code of a user, as its SHA-256 hash; used_at set by its one use. */
export const RecoveryCodeEntity = new EntitySchema<Row>({
  name: 'RecoveryCode',
  tableName: 'second_factor_recovery_code',
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    userCode: userReference,
    codeHash: { type: 'string', length: 64 },
    usedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
  } as never,
  uniques: [{ properties: ['userCode', 'codeHash'] as never, name: 'second_factor_recovery_code_unique' }],
});

/**
 * A login waiting for its second factor, by the SHA-256 hash of its challenge: single use
 * (used_at), short-lived (expires_at). An enrolment at the login keeps its pending secret here.
 */
export const SecondFactorChallengeEntity = new EntitySchema<Row>({
  name: 'SecondFactorChallenge',
  tableName: 'second_factor_challenge',
  schema: SCHEMA,
  properties: {
    challengeHash: { type: 'string', length: 64, primary: true },
    userCode: { ...userReference, index: 'second_factor_challenge_user_code_index' },
    languageCode: { type: 'string', length: 2 },
    enrolSecret: { type: 'string', length: 64, nullable: true },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', index: 'second_factor_challenge_expires_at_index' },
    usedAt: { type: 'datetime', columnType: 'timestamptz', nullable: true },
  } as never,
});

/** The second factor's entities, for the ORM and its migrations, referring to `userInfoEntity`. */
export function secondFactorEntities(userInfoEntity: EntitySchema<AnyEntity>): EntitySchema<Row>[] {
  userInfo = userInfoEntity;
  return [SecondFactorEntity, RecoveryCodeEntity, SecondFactorChallengeEntity];
}
