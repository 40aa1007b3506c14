/**
 * A group's roles as a grid on its page: a row per resource, a box per role of the catalogue
 * (read, write, delete, then the resource's moves), each named in words
 * (docs/adr/0124-roles-by-pointing-from-a-derived-catalogue.md). Ticking grants the role to the
 * group (creating the tenant's role-type of that code first when the tenant has none), unticking
 * deletes the group-role. The tenant's role-types outside the catalogue are boxes of their own.
 */
import { useContext, useId } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { ApiError } from '../../shell/api.ts';
import type { Row } from '../../shell/console-paths.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { createRecord, deleteRecord, listAll } from './access-api.ts';
import { Reasons, useCatalogue, useMissing, WriteOutcome } from './access-common.tsx';
import { accessMessages } from './messages.ts';
import { actionName, CRUD_ACTIONS, resourceName, roleName, type CatalogueRole } from '@platform/contracts/console/role-catalogue.ts';
import { loadTenantRoles, type TenantRoles } from './tenant-roles.ts';
import { useWrite } from './use-write.ts';

/** The tenant's role-type of `code`: the one it has, else a new one named in English (another administrator's made meanwhile is taken). */
async function roleTypeFor(roles: TenantRoles, crProcessId: number, code: string, role: CatalogueRole | undefined): Promise<Row> {
  const known = roles.types.get(code);
  if (known) return known;
  if (!role) throw new Error(`no role-type ${code}`);
  try {
    return await createRecord('role-type', { crProcessId, roleCode: role.code, roleName: roleName(role, 'en') });
  } catch (failure) {
    if (!(failure instanceof ApiError) || failure.code !== 'SVC-SYS-4005') throw failure;
    const [made] = await listAll('role-type', { crProcessId, roleCode: role.code });
    if (!made) throw failure;
    return made;
  }
}

export function GroupRoles({ record }: RecordActionsProps) {
  const t = useT(accessMessages);
  const language = useContext(LanguageContext);
  const missing = useMissing();
  const catalogue = useCatalogue();
  const headingId = useId();
  const reasonsId = useId();
  const groupId = Number(record.id);
  const tenant = Number(record.crProcessId);
  const group = String(record.groupName);
  const unreadable = missing(['group-role:read', 'role-type:read'], 'cannotRead');
  const data = useLoad(async (signal) => (unreadable ? undefined : loadTenantRoles(tenant, groupId, signal)), [tenant, groupId, unreadable]);
  const write = useWrite(data);
  const roles = data.value;

  const grantOf = (code: string) => roles?.grants.find((grant) => roles.codes.get(Number(grant.roleTypeId)) === code);
  const reasonOf = (code: string): string | undefined =>
    grantOf(code) ? missing(['group-role:delete']) : missing(['group-role:write', ...(roles?.types.has(code) ? [] : ['role-type:write'])]);
  const toggle = (code: string, label: string, role: CatalogueRole | undefined) => {
    if (!roles) return;
    const grant = grantOf(code);
    const call = async () => {
      if (grant) return deleteRecord('group-role', String(grant.id));
      const type = await roleTypeFor(roles, tenant, code, role);
      return createRecord('group-role', { crProcessId: tenant, groupId, roleTypeId: type.id });
    };
    void write.run(code, call, t(grant ? 'revoked' : 'granted', { group, role: label }), grant === undefined);
  };

  /**
   * The box of role `code`, named `label`; `shown` is the text beside it (a move's name in the grid's
   * last column, a tenant role's name), else the row and column say what it is.
   */
  const box = (code: string, label: string, shown?: string, role?: CatalogueRole) => {
    const reason = reasonOf(code);
    const input = (
      <input
        type="checkbox"
        checked={write.shown(code, grantOf(code) !== undefined)}
        disabled={reason !== undefined || write.pending !== undefined || data.loading}
        aria-label={shown === label ? undefined : label}
        aria-describedby={reason ? reasonsId : undefined}
        onChange={() => toggle(code, label, role)}
      />
    );
    return shown !== undefined ? (
      <label key={code} className="access-move">
        {input} {shown}
      </label>
    ) : (
      input
    );
  };

  const byResource = [...new Map(catalogue.map((role) => [role.resource.path, role.resource])).values()];
  const known = new Set(catalogue.map((role) => role.code));
  const others = roles ? [...roles.types.values()].filter((type) => !known.has(String(type.roleCode))) : [];
  const header = { read: t('read'), write: t('write'), delete: t('delete') };

  return (
    <section className="access" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('roles')}</h2>
      <p className="muted">{t('rolesHint')}</p>
      {unreadable ? <p>{unreadable}</p> : null}
      <ErrorAlert error={data.error} />
      {roles ? (
        <>
          <Reasons id={reasonsId} reasons={catalogue.map((role) => reasonOf(role.code))} />
          <table className="access-grid">
            <caption className="visually-hidden">{t('roles')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('resource')}</th>
                {CRUD_ACTIONS.map((action) => (
                  <th key={action} scope="col">
                    {header[action]}
                  </th>
                ))}
                <th scope="col">{t('other')}</th>
              </tr>
            </thead>
            <tbody>
              {byResource.map((resource) => {
                const own = catalogue.filter((role) => role.resource === resource);
                const moves = own.filter((role) => !(CRUD_ACTIONS as readonly string[]).includes(role.action));
                return (
                  <tr key={resource.path}>
                    <th scope="row">{resourceName(resource, language)}</th>
                    {CRUD_ACTIONS.map((action) => {
                      const role = own.find((each) => each.action === action);
                      return (
                        <td key={action} data-label={header[action]}>
                          {role ? box(role.code, roleName(role, language), undefined, role) : null}
                        </td>
                      );
                    })}
                    <td data-label={t('other')}>
                      {moves.length > 0 ? (
                        <span className="access-moves">
                          {moves.map((role) => box(role.code, roleName(role, language), actionName(role.action, language), role))}
                        </span>
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {others.length > 0 ? (
            <fieldset className="access-part">
              <legend>{t('tenantRoles')}</legend>
              {others.map((type) => {
                const code = String(type.roleCode);
                return <p key={code}>{box(code, String(type.roleName), String(type.roleName))}</p>;
              })}
            </fieldset>
          ) : null}
        </>
      ) : null}
      <WriteOutcome write={write} />
    </section>
  );
}
