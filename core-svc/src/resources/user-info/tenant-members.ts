import { assertTenant } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { searchPattern } from '@platform/service-kit/crud/search-term.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import type { Handler } from '@platform/service-kit/grpc/server.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import type { ListTenantMembersRequest, ListTenantMembersResponse } from '@platform/kit/gen/platform/core/v1/user_info.ts';
import { userInfo } from '@platform/contracts/core/user-info.ts';

/** A picker's answer: the first matches, by userCode. */
const MEMBERS_LIMIT = 20;

/**
 * GET /api/user-info/tenant-members (user-info:read; docs/adr/0125-a-tenant-finds-its-members-not-others.md):
 * the users whose user-process has a select for the tenant, wherever their user-info is kept: exactly
 * the users a group of the tenant may hold (group-member's check, user-tenants.ts `hasSelectIn`).
 * A caller who is not a super user names only its current tenant (403), so no tenant lists another's
 * users; it shows userCode and userDescription only, nothing of the user's other tenants.
 */
export function tenantMembers(): Handler<never, unknown> {
  return requiring(roleOf(userInfo, 'read'), async (request: ListTenantMembersRequest, ctx): Promise<ListTenantMembersResponse> => {
    const crProcessId = toRowValue('crProcessId', { kind: 'long', min: 1 }, request.crProcessId) as number;
    assertTenant(ctx, crProcessId);
    const term = request.searchTerm === undefined ? '' : (toRowValue('searchTerm', { kind: 'text', maxLength: 255 }, request.searchTerm) as string);
    const pattern = term === '' ? null : searchPattern(term).source;
    const rows = await ctx.em.execute<{ user_code: string; user_description: string }[]>(
      `select u.user_code, u.user_description
         from core.user_info u
        where exists (select 1 from core.user_select_tenant m where m.user_code = u.user_code and m.cr_process_id = ?)
          and (?::text is null or u.user_code ~* ? or u.user_description ~* ?)
        order by u.user_code collate "C"
        limit ${MEMBERS_LIMIT}`,
      [crProcessId, pattern, pattern, pattern],
    );
    return { members: rows.map((row) => ({ userCode: row.user_code, userDescription: row.user_description })) };
  });
}
