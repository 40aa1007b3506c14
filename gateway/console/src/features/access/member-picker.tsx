/**
 * A user chosen by name among the tenant's members (GET /api/user-info/tenant-members,
 * docs/adr/0125-a-tenant-finds-its-members-not-others.md): users kept in another tenant with a
 * select for this one are found too, nobody else. An ARIA 1.2 combobox: arrow keys move, Enter
 * chooses, Escape closes.
 */
import { useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useT } from '../../shell/i18n.tsx';
import { tenantMembers, type TenantMember } from './access-api.ts';
import { accessMessages } from './messages.ts';

export function MemberPicker({
  crProcessId,
  exclude,
  disabled,
  describedBy,
  onChoose,
}: {
  crProcessId: number;
  /** userCodes not to offer (the group's members already). */
  exclude: ReadonlySet<string>;
  disabled: boolean;
  describedBy?: string | undefined;
  onChoose: (member: TenantMember) => void;
}) {
  const t = useT(accessMessages);
  const inputId = useId();
  const listId = useId();
  const hintId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const matches = useQuery({
    queryKey: ['console', 'tenant-members', crProcessId, text],
    enabled: open && !disabled,
    staleTime: 10_000,
    queryFn: ({ signal }) => tenantMembers(crProcessId, text.trim(), signal),
  });
  const rows = (matches.data ?? []).filter((member) => !exclude.has(member.userCode));

  const choose = (member: TenantMember | undefined) => {
    if (member) {
      onChoose(member);
      setText('');
    }
    setOpen(false);
    setActive(-1);
  };

  return (
    <div className="picker access-picker">
      <label htmlFor={inputId}>{t('addMember')}</label>
      <p id={hintId} className="muted">
        {t('addMemberHint')}
      </p>
      <input
        id={inputId}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={[hintId, describedBy].filter(Boolean).join(' ')}
        disabled={disabled}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={() => setOpen(false)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowDown') {
            event.preventDefault();
            if (!open) setOpen(true);
            setActive((index) => Math.min(index + 1, rows.length - 1));
          } else if (event.key === 'ArrowUp') {
            event.preventDefault();
            setActive((index) => Math.max(index - 1, 0));
          } else if (event.key === 'Enter' && open) {
            event.preventDefault();
            choose(rows[active >= 0 ? active : 0]);
          } else if (event.key === 'Escape' && open) {
            event.preventDefault();
            setOpen(false);
          }
        }}
      />
      <ul id={listId} role="listbox" aria-label={t('addMember')} className="picker-list" hidden={!open}>
        {open && matches.isFetched && rows.length === 0 ? (
          <li role="option" aria-selected="false" aria-disabled="true">
            {t('noMatches')}
          </li>
        ) : null}
        {rows.map((member, index) => (
          <li
            key={member.userCode}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'active' : undefined}
            // mousedown before the input's blur closes the list
            onMouseDown={(event) => {
              event.preventDefault();
              choose(member);
            }}
          >
            {member.userDescription} ({member.userCode})
          </li>
        ))}
      </ul>
    </div>
  );
}
