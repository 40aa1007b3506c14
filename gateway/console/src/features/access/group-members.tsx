/**
 * A group's members on its page: each with a button that removes it (deletes the group-member), and
 * a picker of the tenant's members that adds one (creates it). Membership counts from the member's
 * next request (docs/adr/0015-what-a-user-may-do-is-read-live.md).
 */
import { useId } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { ErrorAlert } from '../../ui/error-alert.tsx';
import { createRecord, deleteRecord, listAll } from './access-api.ts';
import { Reasons, useMissing, WriteOutcome } from './access-common.tsx';
import { MemberPicker } from './member-picker.tsx';
import { accessMessages } from './messages.ts';
import { useWrite } from './use-write.ts';

export function GroupMembers({ record }: RecordActionsProps) {
  const t = useT(accessMessages);
  const missing = useMissing();
  const headingId = useId();
  const removeReasonId = useId();
  const addReasonId = useId();
  const groupId = Number(record.id);
  const tenant = Number(record.crProcessId);
  const group = String(record.groupName);
  const unreadable = missing(['group-member:read'], 'cannotRead');
  const members = useLoad(
    async (signal) => (unreadable ? undefined : listAll('group-member', { crProcessId: tenant, groupId }, signal)),
    [tenant, groupId, unreadable],
  );
  const write = useWrite(members);
  const removeReason = missing(['group-member:delete']);
  const addReason = missing(['group-member:write', 'user-info:read']);
  const rows = members.value ?? [];

  return (
    <section className="access" aria-labelledby={headingId}>
      <h2 id={headingId}>{t('members')}</h2>
      {unreadable ? <p>{unreadable}</p> : null}
      <ErrorAlert error={members.error} />
      {members.value && rows.length === 0 ? <p>{t('noMembers')}</p> : null}
      <Reasons id={removeReasonId} reasons={rows.length > 0 ? [removeReason] : []} />
      <ul className="access-members">
        {rows.map((member) => {
          const userCode = String(member.userCode);
          return (
            <li key={String(member.id)}>
              <span>{userCode}</span>
              <button
                type="button"
                disabled={removeReason !== undefined || write.pending !== undefined || members.loading}
                aria-describedby={removeReason ? removeReasonId : undefined}
                onClick={() => void write.run(userCode, () => deleteRecord('group-member', String(member.id)), t('left', { user: userCode, group }))}
              >
                {t('remove', { user: userCode })}
              </button>
            </li>
          );
        })}
      </ul>
      {unreadable ? null : (
        <>
          <Reasons id={addReasonId} reasons={[addReason]} />
          <MemberPicker
            crProcessId={tenant}
            exclude={new Set(rows.map((member) => String(member.userCode)))}
            disabled={addReason !== undefined || write.pending !== undefined}
            describedBy={addReason ? addReasonId : undefined}
            onChoose={(member) =>
              void write.run(
                member.userCode,
                () => createRecord('group-member', { crProcessId: tenant, groupId, userCode: member.userCode }),
                t('joined', { user: member.userCode, group }),
              )
            }
          />
        </>
      )}
      <WriteOutcome write={write} />
    </section>
  );
}
