/**
 * The tenants a user may work in, as boxes: its user-process's selects, and the tenants the console's
 * user works in itself. Ticking writes the user-process (created with the first tenant, deleted with
 * the last). A tenant administrator changes only its own tenant, and only for a user wholly inside it
 * (docs/adr/0005-users-who-are-not-super-users.md); the boxes say so instead of failing.
 */
import { useId } from 'react';
import { useAccess } from '../../shell/access.tsx';
import type { Row } from '../../shell/console-paths.ts';
import { useT } from '../../shell/i18n.tsx';
import type { Loaded } from '../../shell/use-load.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { createRecord, deleteRecord, updateRecord, type Select } from './access-api.ts';
import { Reasons, useMissing, WriteOutcome } from './access-common.tsx';
import { TenantByNumber } from './tenant-by-number.tsx';
import { accessMessages } from './messages.ts';
import { useWrite } from './use-write.ts';

export function TenantMemberships({
  userCode,
  home,
  process,
  selects,
}: {
  userCode: string;
  home: number;
  process: Loaded<Row | null | undefined>;
  selects: Select[] | undefined;
}) {
  const t = useT(accessMessages);
  const { me } = useAccess();
  const missing = useMissing();
  const reasonsId = useId();
  const write = useWrite(process);
  const unreadable = missing(['user-process:read'], 'cannotRead');
  const own = (me.userProcess?.userProcessSelects ?? []) as Select[];
  const offered = [...new Map([...(selects ?? []), ...own].map((select) => [select.accountNo, select])).values()].sort((a, b) =>
    a.accountNo < b.accountNo ? -1 : 1,
  );
  const shared = !me.superUser && (selects ?? []).some((select) => select.crProcessId !== me.crProcessId);
  const record = process.value ?? undefined;

  const reasonOf = (select: Select, held: boolean): string | undefined => {
    if (!me.superUser && select.crProcessId !== me.crProcessId) return t('superOnlyOther');
    if (shared) return t('superOnlyShared');
    const last = held && (selects ?? []).length === 1;
    return missing([last ? 'user-process:delete' : 'user-process:write']);
  };

  const toggle = (select: Select, held: boolean) => {
    const next = held ? (selects ?? []).filter((each) => each.accountNo !== select.accountNo) : [...(selects ?? []), select];
    const body = next.map((each) => ({ accountNo: each.accountNo }));
    const call = () => {
      if (!record) return createRecord('user-process', { crProcessId: home, userCode, userProcessSelects: body });
      if (next.length === 0) return deleteRecord('user-process', String(record.id));
      return updateRecord('user-process', String(record.id), { version: record.version, userProcessSelects: body });
    };
    const tenant = `${select.accountName} (${select.accountNo})`;
    void write.run(select.accountNo, call, t(held ? 'tenantRemoved' : 'tenantAdded', { user: userCode, tenant }), !held);
  };

  return (
    <fieldset className="access-part">
      <legend>{t('memberships')}</legend>
      <p className="muted">{t('membershipsHint')}</p>
      {unreadable ? <p>{unreadable}</p> : null}
      <ErrorAlert error={process.error} />
      {selects === undefined ? null : (
        <>
          <Reasons
            id={reasonsId}
            reasons={offered.map((select) =>
              reasonOf(
                select,
                selects.some((each) => each.accountNo === select.accountNo),
              ),
            )}
          />
          <ul className="access-boxes">
            {offered.map((select) => {
              const held = selects.some((each) => each.accountNo === select.accountNo);
              const reason = reasonOf(select, held);
              return (
                <li key={select.accountNo}>
                  <label>
                    <input
                      type="checkbox"
                      checked={write.shown(select.accountNo, held)}
                      disabled={reason !== undefined || write.pending !== undefined || process.loading}
                      aria-describedby={reason ? reasonsId : undefined}
                      onChange={() => toggle(select, held)}
                    />{' '}
                    {select.accountName} <span className="muted">({select.accountNo})</span>
                  </label>
                </li>
              );
            })}
          </ul>
        </>
      )}
      {me.superUser && selects !== undefined ? (
        <TenantByNumber
          disabled={missing(['user-process:write']) !== undefined || write.pending !== undefined || process.loading}
          onFound={(select) => {
            if (selects.some((each) => each.accountNo === select.accountNo)) return;
            toggle(select, false);
          }}
        />
      ) : null}
      <WriteOutcome write={write} />
    </fieldset>
  );
}
