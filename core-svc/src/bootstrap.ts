import { randomBytes } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { hashPassword } from '@platform/service-kit/auth/password.ts';
import { ConfigError } from '@platform/kit/config/config-error.ts';
import type { CoreConfig } from './config.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { AccountEntity, UserInfoEntity, UserProcessEntity, UserProcessSelectEntity } from './db.ts';
import { scopedFork } from '@platform/service-kit/db/tenant-scope.ts';

export const DEFAULT_ACCOUNT = { accountNo: 'DEFAULT', accountName: 'Default', crProcessId: 1 } as const;

/**
 * On a database with no user: account DEFAULT (crProcessId 1), the super user ADMIN_USER_CODE with
 * ADMIN_PASSWORD, and the user-process linking them (docs/interface.md#running). Several replicas starting at
 * once create them once: the unique keys decide. ADMIN_PASSWORD unset: development and test generate
 * one and log it once; production refuses to start, since a password in its logs is a leaked one.
 */
export async function bootstrap(orm: MikroORM, config: CoreConfig, log: Logger): Promise<void> {
  const em = scopedFork(orm, { platform: 'bootstrap' });
  if ((await em.count(UserInfoEntity, {})) > 0) return;
  if (!config.adminPassword && config.appEnv === 'production') {
    throw new ConfigError(
      `production makes the first super user (${config.adminUserCode}) only with ADMIN_PASSWORD set: add it to the Secret for the first start ` +
        '(it is read only while the database has no user, and may be removed afterwards)',
    );
  }
  const password = config.adminPassword ?? randomBytes(12).toString('base64url');
  const now = new Date();
  const audit = { version: 0, status: true, createdAt: now, updatedAt: now, createdBy: 'bootstrap', updatedBy: 'bootstrap' };
  try {
    await em.transactional(async (tx) => {
      const account = tx.create(AccountEntity, { ...audit, ...DEFAULT_ACCOUNT, secondFactorRequired: false });
      tx.create(UserInfoEntity, {
        ...audit,
        crProcessId: DEFAULT_ACCOUNT.crProcessId,
        userCode: config.adminUserCode,
        userDescription: 'Administrator',
        password: await hashPassword(password, config.bcryptRounds),
        languageCode: 'en',
        superUser: true,
        tokenVersion: 0,
      });
      const process = tx.create(UserProcessEntity, {
        ...audit,
        crProcessId: DEFAULT_ACCOUNT.crProcessId,
        userCode: config.adminUserCode,
        userDescription: 'Administrator',
      });
      await tx.flush();
      tx.create(UserProcessSelectEntity, { userProcessId: process.id, accountId: account.id });
    });
  } catch (error) {
    if ((await scopedFork(orm, { platform: 'bootstrap' }).count(UserInfoEntity, {})) > 0) return; // another replica won the race
    throw error;
  }
  log.info(
    { userCode: config.adminUserCode, ...(config.adminPassword ? {} : { generatedPassword: password }) },
    'bootstrap: created account DEFAULT and super user',
  );
}
