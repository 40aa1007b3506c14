import type { EntityManager } from '@mikro-orm/postgresql';
import { queryPrepared } from '@platform/service-kit/db/prepared.ts';
import type { SelectView } from '../resources/user-process/user-process.operations.ts';
import type { Identity, ProcessView, UserView } from './identity.ts';

/** One row of a login's identity read: the user, its active user-process, one tenant it holds. */
export interface LoginRow {
  user_code: string;
  user_description: string;
  password: string;
  status: boolean;
  super_user: boolean;
  token_version: number;
  process_id: string | null;
  process_description: string | null;
  process_cr_process_id: string | null;
  account_no: string | null;
  account_name: string | null;
  account_cr_process_id: string | null;
}

const LOGIN_IDENTITY = {
  name: 'core-login-identity',
  text: `select u.user_code, u.user_description, u.password, u.status, u.super_user, u.token_version,
                p.id as process_id, p.user_description as process_description, p.cr_process_id as process_cr_process_id,
                a.account_no, a.account_name, a.cr_process_id as account_cr_process_id
           from core.user_info u
           left join core.user_process p on p.user_code = u.user_code and p.status
           left join core.user_tenant a on a.user_code = p.user_code
          where u.user_code = $1
          order by a.account_no`,
};

/**
 * What login reads, in one named prepared statement (one round trip instead of three, parsed and
 * planned once per connection): the user by its code, its active user-process and the tenants it
 * holds (`core.user_tenant`: selects of active accounts, ordered by accountNo). Undefined for an
 * unknown user; `identity` undefined when the user has no active user-process.
 */
export async function loginIdentity(em: EntityManager, userCode: string): Promise<{ user: UserView; identity: Identity | undefined } | undefined> {
  return identityFromRows(await queryPrepared<LoginRow>(em, LOGIN_IDENTITY, [userCode]));
}

/** The user and identity of a login's rows (LOGIN_IDENTITY's columns, ordered by accountNo); undefined without rows. */
export function identityFromRows(rows: readonly LoginRow[]): { user: UserView; identity: Identity | undefined } | undefined {
  const [first] = rows;
  if (!first) return undefined;
  const user: UserView = {
    userCode: first.user_code,
    userDescription: first.user_description,
    password: first.password,
    status: first.status,
    superUser: first.super_user,
    tokenVersion: first.token_version,
  };
  if (first.process_id === null) return { user, identity: undefined };
  const process: ProcessView = {
    id: Number(first.process_id),
    userDescription: first.process_description,
    crProcessId: Number(first.process_cr_process_id),
  };
  const selects: SelectView[] = [];
  for (const row of rows) {
    if (row.account_no === null) continue;
    selects.push({ accountNo: row.account_no, accountName: row.account_name ?? '', crProcessId: Number(row.account_cr_process_id) });
  }
  return { user, identity: { user, process, selects } };
}
