/**
 * A super user's way to a tenant it does not work in itself: the account named by its number
 * (GET /api/account/{accountNo}; a super user reads any), then given to the user like a ticked box.
 * Tenant administrators never see it: only a super user grants another tenant
 * (docs/adr/0005-users-who-are-not-super-users.md).
 */
import { useId, useState } from 'react';
import { answer, platform } from '../../shell/api.ts';
import { useT } from '../../shell/i18n.tsx';
import { accessMessages } from './messages.ts';
import type { Select } from './access-api.ts';

export function TenantByNumber({ disabled, onFound }: { disabled: boolean; onFound: (select: Select) => void }) {
  const t = useT(accessMessages);
  const inputId = useId();
  const [accountNo, setAccountNo] = useState('');
  const [error, setError] = useState<string>();
  return (
    <form
      className="access-by-number"
      onSubmit={(event) => {
        event.preventDefault();
        const wanted = accountNo.trim();
        if (wanted === '') return;
        setError(undefined);
        answer(platform.GET('/api/{resource}/{key}', { params: { path: { resource: 'account', key: wanted } } })).then(
          (account) => {
            setAccountNo('');
            onFound({ accountNo: String(account.accountNo), accountName: String(account.accountName), crProcessId: Number(account.crProcessId) });
          },
          (failure: unknown) => setError(failure instanceof Error ? failure.message : String(failure)),
        );
      }}
    >
      <label htmlFor={inputId}>{t('byNumber')}</label>
      <span className="actions">
        <input id={inputId} value={accountNo} maxLength={64} disabled={disabled} onChange={(event) => setAccountNo(event.target.value)} />
        <button type="submit" disabled={disabled}>
          {t('addTenant')}
        </button>
      </span>
      {error ? (
        <p role="alert" className="error-alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
