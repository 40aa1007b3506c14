import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { hashPassword } from '@platform/service-kit/auth/password.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import { identityOf, type Identity } from '../auth/identity.ts';
import { UserInfoEntity } from '../db.ts';
import type { GroupMapping } from '../resources/identity-provider/identity-provider.operations.ts';
import type { ProviderRow } from './provider-row.ts';

/** What a verified ID token says of its user. */
export interface SignedInPerson {
  subject: string;
  email: string;
  name: string;
  claims: Record<string, unknown>;
}

/**
 * The platform user behind a provider's subject, made just in time (docs/adr/0132-sign-in-provisions-the-user.md):
 * - first sign-in: a user-info (userCode the e-mail when free, else `sso-<provider>-<hash of the subject>`; a
 *   password nobody knows; never a super user), its user-process with a select of the provider's tenant, and
 *   the link (provider, subject) → userCode. An existing user is never taken over by its e-mail alone.
 * - every sign-in: the select of the provider's tenant made again if it was removed, and the memberships of
 *   the mapped groups set to what the claims say (added where a rule matches, removed where none does);
 *   memberships of groups no rule names are left as they are.
 * Runs in the caller's transaction. Undefined when the linked user, its user-process or the account is passive.
 */
export async function provision(
  em: EntityManager,
  provider: ProviderRow,
  mappings: readonly GroupMapping[],
  person: SignedInPerson,
  bcryptRounds: number,
): Promise<Identity | undefined> {
  const now = new Date();
  const actor = `sso:${provider.id}`;
  const [link] = await em.execute<{ user_code: string }[]>(
    `select i.user_code from core.oidc_identity i join core.user_info u on u.user_code = i.user_code where i.provider_id = ? and i.subject = ?`,
    [provider.id, person.subject],
  );
  let userCode = link?.user_code;
  if (userCode === undefined) {
    await em.execute(`delete from core.oidc_identity where provider_id = ? and subject = ?`, [provider.id, person.subject]);
    userCode = await freeUserCode(em, provider.id, person);
    const password = await hashPassword(randomBytes(32).toString('base64url'), bcryptRounds);
    await em.execute(
      `insert into core.user_info (cr_process_id, created_at, updated_at, created_by, updated_by, user_code, user_description, password, email)
       values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [provider.crProcessId, now, now, actor, actor, userCode, person.name.slice(0, 255), password, person.email.slice(0, 255)],
    );
    await em.execute(`insert into core.oidc_identity (provider_id, subject, user_code, created_at, last_sign_in_at) values (?, ?, ?, ?, ?)`, [
      provider.id,
      person.subject,
      userCode,
      now,
      now,
    ]);
  } else {
    await em.execute(`update core.oidc_identity set last_sign_in_at = ? where provider_id = ? and subject = ?`, [now, provider.id, person.subject]);
  }
  await em.execute(
    `insert into core.user_process (cr_process_id, created_at, updated_at, created_by, updated_by, user_code)
     values (?, ?, ?, ?, ?, ?) on conflict (user_code) do nothing`,
    [provider.crProcessId, now, now, actor, actor, userCode],
  );
  await em.execute(
    `insert into core.user_process_select (user_process_id, account_id)
     select p.id, a.id from core.user_process p, core.account a
      where p.user_code = ? and a.cr_process_id = ?
        and not exists (select 1 from core.user_process_select s where s.user_process_id = p.id and s.account_id = a.id)`,
    [userCode, provider.crProcessId],
  );
  await syncGroups(em, provider.crProcessId, userCode, mappings, person.claims, actor, now);

  const user = await em.findOne(UserInfoEntity, { userCode });
  if (!user || user.status !== true) return undefined;
  // a passive user-process or account holds no tenant (core.user_tenant), as for a password login
  const [held] = await em.execute<{ n: number }[]>(`select 1 as n from core.user_tenant where user_code = ? and cr_process_id = ?`, [
    userCode,
    provider.crProcessId,
  ]);
  if (!held) return undefined;
  return identityOf(em, user, unauthenticated);
}

/** The groups whose rule the claims match, by name. */
export function matchedGroups(mappings: readonly GroupMapping[], claims: Record<string, unknown>): Set<string> {
  const matched = new Set<string>();
  for (const { claim, value, groupName } of mappings) {
    const held = claims[claim];
    const values = Array.isArray(held) ? held : [held];
    if (values.some((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') && String(v) === value)) matched.add(groupName);
  }
  return matched;
}

async function syncGroups(
  em: EntityManager,
  crProcessId: number,
  userCode: string,
  mappings: readonly GroupMapping[],
  claims: Record<string, unknown>,
  actor: string,
  now: Date,
): Promise<void> {
  const mapped = [...new Set(mappings.map((m) => m.groupName))];
  if (mapped.length === 0) return;
  const groups = await em.execute<{ id: string; group_name: string }[]>(
    `select id, group_name from core.security_group where cr_process_id = ? and group_name in (?)`,
    [crProcessId, mapped],
  );
  const wanted = matchedGroups(mappings, claims);
  const join = groups.filter((g) => wanted.has(g.group_name)).map((g) => Number(g.id));
  const leave = groups.filter((g) => !wanted.has(g.group_name)).map((g) => Number(g.id));
  if (leave.length > 0)
    await em.execute(`delete from core.group_member where cr_process_id = ? and user_code = ? and group_id in (?)`, [crProcessId, userCode, leave]);
  for (const groupId of join) {
    await em.execute(
      `insert into core.group_member (cr_process_id, created_at, updated_at, created_by, updated_by, group_id, user_code)
       values (?, ?, ?, ?, ?, ?, ?) on conflict (cr_process_id, group_id, user_code) do nothing`,
      [crProcessId, now, now, actor, actor, groupId, userCode],
    );
  }
}

/** The e-mail as userCode when it fits and no user has it; else a code made from the provider and the subject. */
async function freeUserCode(em: EntityManager, providerId: number, person: SignedInPerson): Promise<string> {
  const email = person.email.toLowerCase();
  if (email.length <= 64) {
    const [taken] = await em.execute<{ n: number }[]>(`select 1 as n from core.user_info where user_code = ?`, [email]);
    if (!taken) return email;
  }
  return `sso-${providerId}-${createHash('sha256').update(person.subject).digest('hex').slice(0, 24)}`;
}
