import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { answer, platform } from '../shell/api.ts';
import type { Row } from '../shell/console-paths.ts';
import { referenceName } from './reference-name.ts';
import { useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';

const MATCHES = 10;

/**
 * The records of `target` matching `term` (its searchTerm), in the tenant: `POST /api/{target}/list`;
 * or the tenant's members when the reference declares them its candidates (a group's member: users
 * kept in another tenant with a select for this one too, docs/adr/0125-a-tenant-finds-its-members-not-others.md).
 */
function useMatches(target: ConsoleResource, term: string, crProcessId: number, enabled: boolean, candidates: Candidates) {
  return useQuery({
    queryKey: ['console', 'picker', target.path, candidates ?? 'list', crProcessId, term],
    enabled,
    staleTime: 30_000,
    queryFn: async ({ signal }): Promise<Row[]> => {
      if (candidates === 'tenant-members') {
        const query = { crProcessId, searchTerm: term || undefined };
        return answer(platform.GET('/api/user-info/tenant-members', { params: { query }, signal }));
      }
      const page = await answer(
        platform.POST('/api/{resource}/list', {
          params: { path: { resource: target.path } },
          body: { page: 0, size: MATCHES, searchTerm: term || undefined, filter: { crProcessId } },
          signal,
        }),
      );
      return page.content;
    },
  });
}

type Candidates = NonNullable<ConsoleField['references']>['candidates'];

function labelOf(target: ConsoleResource, row: Row, key: string): string {
  const display = row[target.display];
  return display === undefined || display === null || String(display) === String(row[key]) ? String(row[key]) : `${String(display)} (${String(row[key])})`;
}

/**
 * A reference chosen by name: an ARIA 1.2 combobox whose list is the target's records matching what
 * was typed (its searchTerm), shown by their display field; the value is the reference's key (`id`,
 * or `userCode` of a user). Arrow keys move, Enter chooses, Escape closes.
 */
export function ReferencePicker({
  id,
  target,
  refKey,
  value,
  onChange,
  crProcessId,
  required,
  describedBy,
  candidates,
}: {
  id: string;
  target: ConsoleResource;
  refKey: string;
  value: string;
  onChange: (value: string) => void;
  crProcessId: number;
  required?: boolean;
  describedBy?: string;
  /** Where the choices come from when not the target's list (the reference's declaration). */
  candidates?: Candidates;
}) {
  const t = useT(crudMessages);
  const listId = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  // the label of the record chosen here, shown at once (before the chosen record's own read)
  const [picked, setPicked] = useState<{ value: string; label: string } | undefined>(undefined);
  // the chosen record's name, when the target is read by the same key (the usual `id`); a plain
  // query as in ReferenceValue (Refine's useOne costs a route match per hook on every mount)
  const { data: chosen } = useQuery({
    ...referenceName(target.path, value),
    enabled: value !== '' && refKey === target.key,
    staleTime: 5 * 60_000,
    retry: false,
  });
  useEffect(() => {
    if (open) return;
    if (value === '') setText('');
    else if (picked?.value === value) setText(picked.label);
    else setText(chosen ? labelOf(target, chosen, refKey) : value);
  }, [value, chosen, open, target, refKey, picked]);
  const matches = useMatches(target, open ? text : '', crProcessId, open, candidates);
  const rows = matches.data ?? [];

  function choose(row: Row | undefined) {
    if (row) {
      const label = labelOf(target, row, refKey);
      setPicked({ value: String(row[refKey]), label });
      // shown in the same render as the key or click that chose it, not an effect later
      setText(label);
      onChange(String(row[refKey]));
    }
    setOpen(false);
    setActive(-1);
  }

  return (
    <div className="picker">
      <input
        id={id}
        type="text"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={open}
        aria-controls={listId}
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        aria-describedby={describedBy}
        required={required}
        value={text}
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
          if (event.target.value === '') onChange('');
        }}
        onFocus={() => setOpen(false)}
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
      <ul id={listId} role="listbox" className="picker-list" hidden={!open}>
        {open && matches.isFetched && rows.length === 0 ? (
          <li role="option" aria-selected="false" aria-disabled="true" className="muted">
            {t('noMatches')}
          </li>
        ) : null}
        {rows.map((row, index) => (
          <li
            key={String(row[refKey])}
            id={`${listId}-${index}`}
            role="option"
            aria-selected={index === active}
            className={index === active ? 'active' : undefined}
            // mousedown before the input's blur closes the list
            onMouseDown={(event) => {
              event.preventDefault();
              choose(row);
            }}
          >
            {labelOf(target, row, refKey)}
          </li>
        ))}
      </ul>
    </div>
  );
}
