import { useId, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { answer, platform } from '../shell/api.ts';
import { useAccess } from '../shell/access.tsx';
import { useT } from '../shell/i18n.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { shellMessages } from './messages.ts';

/**
 * The accounts the user may work in (me.userProcess's userProcessSelects): choosing one moves the session
 * there (`POST /api/auth/switch-account`), then the user, roles and every query are loaded again.
 */
export function TenantSwitcher() {
  const t = useT(shellMessages);
  const { me } = useAccess();
  const queryClient = useQueryClient();
  const id = useId();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const selects = me.userProcess?.userProcessSelects ?? [];
  if (selects.length < 2) {
    return (
      <span className="header-item">
        {t('tenant')}: <strong>{selects[0]?.accountName ?? me.accountNo}</strong>
      </span>
    );
  }
  return (
    <span className="header-item">
      <label htmlFor={id}>{t('tenant')}</label>{' '}
      <select
        id={id}
        value={me.accountNo}
        disabled={busy}
        onChange={async (event) => {
          setBusy(true);
          setError(null);
          try {
            await answer(platform.POST('/api/auth/switch-account', { body: { accountNo: event.target.value } }));
            await queryClient.resetQueries();
          } catch (failure) {
            setError(failure);
          } finally {
            setBusy(false);
          }
        }}
      >
        {selects.map((select) => (
          <option key={select.accountNo} value={select.accountNo ?? ''}>
            {select.accountName ? `${select.accountName} (${select.accountNo})` : select.accountNo}
          </option>
        ))}
      </select>
      <ErrorAlert error={error} />
    </span>
  );
}
