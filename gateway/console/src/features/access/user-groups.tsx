/**
 * The groups of a tenant as boxes on a user's page: ticked where the user is a member, each with the
 * roles it grants by their readable names. Ticking creates the group-member, unticking deletes it;
 * roles count from the user's next request (docs/adr/0015-what-a-user-may-do-is-read-live.md). A
 * super user chooses the tenant among the user's; anyone else works in its current tenant.
 */
import { useId, useState } from 'react';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { createRecord, deleteRecord, listAll, type Select } from './access-api.ts';
import { Reasons, useCatalogue, useMissing, useRoleName, WriteOutcome } from './access-common.tsx';
import { accessMessages } from './messages.ts';
import { codesOf, loadTenantRoles } from './tenant-roles.ts';
import { useWrite } from './use-write.ts';

export function UserGroups({ userCode, selects }: { userCode: string; selects: Select[] | undefined }) {
  const t = useT(accessMessages);
  const { me } = useAccess();
  const missing = useMissing();
  const roleName = useRoleName();
  const catalogue = useCatalogue();
  // a group's roles in the catalogue's order (the grid's), the tenant's own after them
  const order = (code: string) => {
    const index = catalogue.findIndex((role) => role.code === code);
    return index < 0 ? catalogue.length : index;
  };
  const reasonsId = useId();
  const tenantId = useId();
  const own = (me.userProcess?.userProcessSelects ?? []) as Select[];
  const tenants = me.superUser
    ? [
        ...new Map(
          [...own.filter((select) => select.crProcessId === me.crProcessId), ...(selects ?? [])].map((select) => [select.crProcessId, select]),
        ).values(),
      ]
    : own.filter((select) => select.crProcessId === me.crProcessId);
  const [chosen, setChosen] = useState<number>();
  const tenant = chosen ?? me.crProcessId;
  const tenantName = tenants.find((select) => select.crProcessId === tenant)?.accountName ?? String(tenant);
  const unreadable = missing(['group:read', 'group-member:read'], 'cannotRead');
  const rolesUnreadable = missing(['group-role:read', 'role-type:read'], 'cannotRead');

  const data = useLoad(
    async (signal) => {
      if (unreadable) return undefined;
      const [groups, memberships, roles] = await Promise.all([
        listAll('group', { crProcessId: tenant }, signal),
        listAll('group-member', { crProcessId: tenant, userCode }, signal),
        rolesUnreadable ? undefined : loadTenantRoles(tenant, undefined, signal),
      ]);
      return { groups, memberships, roles };
    },
    [tenant, userCode, unreadable, rolesUnreadable],
  );
  const write = useWrite(data);
  const outside = selects !== undefined && !selects.some((select) => select.crProcessId === tenant);

  const reasonOf = (member: boolean): string | undefined => {
    if (!member && outside) return t('notInTenant', { user: userCode });
    return missing([member ? 'group-member:delete' : 'group-member:write']);
  };
  const groups = data.value?.groups ?? [];
  const memberships = data.value?.memberships ?? [];

  return (
    <fieldset className="access-part">
      <legend>{t('groupsIn', { tenant: tenantName })}</legend>
      {me.superUser && tenants.length > 1 ? (
        <p>
          <label htmlFor={tenantId}>{t('groupsTenant')}</label>{' '}
          <select id={tenantId} value={tenant} onChange={(event) => setChosen(Number(event.target.value))}>
            {tenants.map((select) => (
              <option key={select.crProcessId} value={select.crProcessId}>
                {select.accountName} ({select.accountNo})
              </option>
            ))}
          </select>
        </p>
      ) : null}
      {unreadable ? <p>{unreadable}</p> : null}
      {rolesUnreadable && !unreadable ? <p>{rolesUnreadable}</p> : null}
      <ErrorAlert error={data.error} />
      {data.loading && !data.value && !unreadable ? <p aria-busy="true">{t('loading')}</p> : null}
      {data.value && groups.length === 0 ? <p>{t('noGroups')}</p> : null}
      <Reasons id={reasonsId} reasons={groups.map((group) => reasonOf(memberships.some((each) => Number(each.groupId) === Number(group.id))))} />
      <ul className="access-boxes">
        {groups.map((group) => {
          const groupId = Number(group.id);
          const membership = memberships.find((each) => Number(each.groupId) === groupId);
          const reason = reasonOf(membership !== undefined);
          const codes = data.value?.roles ? codesOf(data.value.roles, groupId).sort((a, b) => order(a) - order(b)) : undefined;
          const name = String(group.groupName);
          const toggle = () =>
            void write.run(
              String(groupId),
              () =>
                membership ? deleteRecord('group-member', String(membership.id)) : createRecord('group-member', { crProcessId: tenant, groupId, userCode }),
              t(membership ? 'left' : 'joined', { user: userCode, group: name }),
              membership === undefined,
            );
          return (
            <li key={groupId}>
              <label>
                <input
                  type="checkbox"
                  checked={write.shown(String(groupId), membership !== undefined)}
                  disabled={reason !== undefined || write.pending !== undefined || data.loading}
                  aria-describedby={reason ? reasonsId : undefined}
                  onChange={toggle}
                />{' '}
                {name}
                {group.status === false ? <span className="muted"> {t('passive')}</span> : null}
              </label>
              {codes ? (
                <p className="access-grants">
                  {codes.length === 0
                    ? t('grantsNothing')
                    : `${t('grants')}: ${codes.map((code) => roleName(code, String(data.value?.roles?.types.get(code)?.roleName ?? code))).join(', ')}`}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <WriteOutcome write={write} />
    </fieldset>
  );
}
