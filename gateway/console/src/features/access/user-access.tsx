/**
 * A user's access, on its record page: the tenants it may work in (its user-process's selects) and
 * the groups it belongs to in a tenant, each group with the roles it grants by their readable names
 * (docs/adr/0124-roles-by-pointing-from-a-derived-catalogue.md). Every box is one API call.
 */
import { useId } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { listAll, type Select } from './access-api.ts';
import { accessMessages } from './messages.ts';
import { TenantMemberships } from './tenant-memberships.tsx';
import { UserGroups } from './user-groups.tsx';

export function UserAccess({ record }: RecordActionsProps) {
  const t = useT(accessMessages);
  const { can } = useAccess();
  const headingId = useId();
  const userCode = String(record.userCode);
  // a user-process is kept in its user's tenant (docs/adr/0005-users-who-are-not-super-users.md)
  const home = Number(record.crProcessId);
  const mayRead = can('user-process:read');
  const process = useLoad(
    async (signal) => (mayRead ? ((await listAll('user-process', { crProcessId: home, userCode }, signal))[0] ?? null) : undefined),
    [userCode, home, mayRead],
  );
  const selects = process.value === undefined ? undefined : ((process.value?.userProcessSelects as Select[] | undefined) ?? []);
  return (
    <section className="access" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('access')}</h2>
      <TenantMemberships userCode={userCode} home={home} process={process} selects={selects} />
      <UserGroups userCode={userCode} selects={selects} />
    </section>
  );
}
