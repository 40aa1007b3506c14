import { useEffect, useId, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { answer, platform } from '../shell/api.ts';
import { useAccess } from '../shell/access.tsx';
import { useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';

/** The account whose tenant is `crProcessId`, by `POST /api/account/list` (a super user may name any tenant). */
function useAccountOf(crProcessId: number | undefined) {
  return useQuery({
    queryKey: ['console', 'tenant-account', crProcessId],
    enabled: crProcessId !== undefined,
    staleTime: 5 * 60_000,
    queryFn: async ({ signal }) => {
      if (crProcessId === undefined) return null;
      const page = await answer(platform.POST('/api/account/list', { body: { page: 0, size: 1, filter: { crProcessId } }, signal }));
      return page.content[0] ?? null;
    },
  });
}

/** How long typing may pause before the typed tenant is shown: a number typed is one list call, not one per digit. */
const SETTLE_MS = 350;

/**
 * A super user's choice of tenant (every list and create names one, docs/interface.md#lists): a
 * number, offered from the user's own accounts, with the account of the tenant named beside it.
 */
export function TenantPicker({ value, onChange }: { value: number; onChange: (crProcessId: number) => void }) {
  const t = useT(crudMessages);
  const { me } = useAccess();
  const id = useId();
  const account = useAccountOf(Number.isInteger(value) && value > 0 ? value : undefined);
  const selects = me.userProcess?.userProcessSelects ?? [];
  const [text, setText] = useState(String(value));
  useEffect(() => setText(String(value)), [value]);
  useEffect(() => {
    const typed = Number(text);
    if (text === String(value) || !Number.isInteger(typed) || typed <= 0) return;
    const timer = setTimeout(() => onChange(typed), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onChange]);
  return (
    <div className="tenant-picker">
      <label htmlFor={id}>{t('tenant')}</label>{' '}
      <input
        id={id}
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        list={`${id}-known`}
        value={text}
        aria-describedby={`${id}-account`}
        onChange={(event) => setText(event.target.value)}
      />
      <datalist id={`${id}-known`}>
        {selects.map((select) => (
          <option key={select.accountNo} value={select.crProcessId ?? undefined}>
            {select.accountName ?? select.accountNo}
          </option>
        ))}
      </datalist>{' '}
      <span id={`${id}-account`} className="muted">
        {account.data ? `${account.data.accountName ?? ''} (${account.data.accountNo})` : account.isFetched ? t('unknownTenant') : ''}
      </span>
    </div>
  );
}
