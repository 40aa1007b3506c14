import { forbidden, invalidField } from '@platform/kit/errors/domain-error.ts';
import type { AppEnv } from '@platform/kit/config/config.ts';
import { isSuperUser, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { defineHooks, type ResourceHooks } from '@platform/service-kit/crud/runtime.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import { identityProvider } from '@platform/contracts/core/identity-provider.ts';
import type { IdentityProviderGroupMapping } from '@platform/kit/gen/platform/core/v1/identity_provider.ts';
import { checkedIssuer } from './issuer-check.ts';

type ProviderRow = RowOf<typeof identityProvider>;

/** A claim → group rule as stored in the groupMappingList column. */
export interface GroupMapping {
  claim: string;
  value: string;
  groupName: string;
}

/**
 * identity-provider (docs/adr/0130-single-sign-on-per-tenant.md): the issuer must be an https URL
 * (http on loopback outside production); allowed domains are kept lower-case in allowedDomainList;
 * group mappings in groupMappingList, each naming a group of the provider's own tenant. A mapping
 * is a standing grant of group membership, so writing mappings needs group-member:write in the
 * tenant beside identity-provider:write: whoever may configure a provider may not grant through it
 * what they could not grant by hand. An update that leaves clientSecret empty keeps the stored one.
 * Deleting a provider deletes its pending sign-ins, its links to users and its sessions' ID tokens.
 */
export function identityProviderHooks(appEnv: AppEnv): ResourceHooks {
  return defineHooks(identityProvider, {
    async beforeWrite(values, input, ctx, mode) {
      if (values.issuer !== undefined && values.issuer !== null) values.issuer = checkedIssuer(values.issuer, appEnv);
      if (mode === 'update' && (values.clientSecret === '' || values.clientSecret === null)) delete values.clientSecret;
      if (mode === 'create') {
        values.allowedDomainList = JSON.stringify(checkedDomains(input.allowedDomains));
        const mappings = checkedMappings(input.groupMappings);
        if (mappings.length > 0) await assertMayGrant(ctx, Number(values.crProcessId), mappings);
        values.groupMappingList = JSON.stringify(mappings);
      }
    },
    async afterWrite(row, input, ctx, mode, written) {
      if (mode === 'create') return;
      if (written.has('allowedDomains')) row.allowedDomainList = JSON.stringify(checkedDomains(input.allowedDomains));
      if (written.has('groupMappings')) {
        const mappings = checkedMappings(input.groupMappings);
        await assertMayGrant(ctx, row.crProcessId, mappings);
        row.groupMappingList = JSON.stringify(mappings);
      }
      if (written.has('allowedDomains') || written.has('groupMappings')) await ctx.em.flush();
    },
    async beforeDelete(row, ctx) {
      // its pending sign-ins, links and sessions' ID tokens go with it; the users it provisioned stay
      for (const table of ['oidc_sign_in', 'oidc_identity', 'oidc_session']) {
        await ctx.em.execute(`delete from core.${table} where provider_id = ?`, [row.id]);
      }
    },
    async decorate(rows, messages) {
      rows.forEach((row, index) => {
        const message = messages[index];
        if (!message) return;
        message.allowedDomains = domainsOf(row);
        message.groupMappings = mappingsOf(row);
        // write-only: never answered, whatever the engine read
        delete message.clientSecret;
      });
    },
  });
}

/** A provider's allowed e-mail domains (lower-case; empty: any). */
export function domainsOf(row: Pick<ProviderRow, 'allowedDomainList'>): string[] {
  return JSON.parse(row.allowedDomainList) as string[];
}

/** A provider's claim → group rules. */
export function mappingsOf(row: Pick<ProviderRow, 'groupMappingList'>): GroupMapping[] {
  return JSON.parse(row.groupMappingList) as GroupMapping[];
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

function checkedDomains(domains: readonly string[]): string[] {
  const out = new Set<string>();
  for (const raw of domains) {
    const domain = raw.trim().toLowerCase().replace(/^@/, '');
    if (!DOMAIN.test(domain)) throw invalidField('allowedDomains', 'field.invalid');
    out.add(domain);
  }
  return [...out];
}

function checkedMappings(mappings: readonly IdentityProviderGroupMapping[]): GroupMapping[] {
  return mappings.map((m) => {
    const claim = m.claim?.trim() ?? '';
    const value = m.value ?? '';
    const groupName = m.groupName?.trim() ?? '';
    if (claim === '' || value === '' || groupName === '') throw invalidField('groupMappings', 'field.required');
    return { claim, value, groupName };
  });
}

/**
 * Every mapped group must be a group of the provider's tenant (400 SVC-SYS-2001 otherwise), and a
 * user who is not a super user must hold group-member:write there now (403 SVC-SYS-1003).
 */
async function assertMayGrant(ctx: CallContext, crProcessId: number, mappings: readonly GroupMapping[]): Promise<void> {
  if (ctx.caller.kind === 'user' && !isSuperUser(ctx)) {
    const held = await ctx.em.execute<{ n: number }[]>(
      `select 1 as n from core.user_tenant_role r join core.user_tenant t on t.user_code = r.user_code and t.cr_process_id = r.cr_process_id
        where r.user_code = ? and r.cr_process_id = ? and r.role_code = 'group-member:write'`,
      [ctx.caller.claims.userCode, crProcessId],
    );
    if (held.length === 0) throw forbidden();
  }
  const names = [...new Set(mappings.map((m) => m.groupName))];
  if (names.length === 0) return;
  const found = await ctx.em.execute<{ group_name: string }[]>(`select group_name from core.security_group where cr_process_id = ? and group_name in (?)`, [
    crProcessId,
    names,
  ]);
  const known = new Set(found.map((r) => r.group_name));
  if (names.some((name) => !known.has(name))) throw invalidField('groupMappings', 'field.reference');
}
