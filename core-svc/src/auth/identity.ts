import type { EntityManager } from '@mikro-orm/postgresql';
import type { userInfo } from '@platform/contracts/core/user-info.ts';
import type { userProcess } from '@platform/contracts/core/user-process.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import type { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { UserProcess } from '@platform/kit/gen/platform/core/v1/user_process.ts';
import { UserProcessEntity } from '../db.ts';
import { selectsOf, type SelectView } from '../resources/user-process/user-process.operations.ts';

/** What login, me and switch-account read of a user and its user-process. */
export type UserView = Pick<RowOf<typeof userInfo>, 'userCode' | 'userDescription' | 'password' | 'status' | 'superUser' | 'tokenVersion'>;
export type ProcessView = Pick<RowOf<typeof userProcess>, 'id' | 'userDescription' | 'crProcessId'>;

/** A user with its active user-process and the tenants it holds. */
export interface Identity {
  user: UserView;
  process: ProcessView;
  selects: SelectView[];
}

/** The identity of `user` read now; `missing()` is thrown when it has no active user-process. */
export async function identityOf(em: EntityManager, user: UserView, missing: () => DomainError): Promise<Identity> {
  const process = await em.findOne(UserProcessEntity, { userCode: user.userCode });
  if (!process) throw missing();
  const selects = (await selectsOf(em, [process.id])).get(process.id) ?? [];
  return { user, process, selects };
}

/** The user-process an answer shows: its description falls back to the user's. */
export function userProcessView({ user, process, selects }: Identity): UserProcess {
  return {
    id: process.id,
    userCode: user.userCode,
    userDescription: process.userDescription ?? user.userDescription,
    userProcessSelects: selects,
  };
}
