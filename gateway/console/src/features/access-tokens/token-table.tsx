import { useContext, useState } from 'react';
import type { AccessToken } from '@platform/client/schema.d.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { formatInstant } from '../operations/format.ts';
import { Modal } from '../operations/modal.tsx';
import { accessTokenMessages } from './messages.ts';

/**
 * Tokens in a table (name, user, roles, dates, last use, state) with "Revoke" on the active ones:
 * asks first, then POST /api/access-token/{tokenId}/revoke, and tells the page to load again.
 */
export function TokenTable({ tokens, showUser, onChanged }: { tokens: readonly AccessToken[]; showUser: boolean; onChanged: () => void }) {
  const t = useT(accessTokenMessages);
  const language = useContext(LanguageContext);
  const [revoking, setRevoking] = useState<AccessToken>();
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ ok: boolean; text: string }>();
  const revoke = async (token: AccessToken) => {
    setBusy(true);
    try {
      await answer(platform.POST('/api/access-token/{tokenId}/revoke', { params: { path: { tokenId: token.tokenId } } }));
      setNotice({ ok: true, text: t('revokedNotice', { name: token.name }) });
    } catch (failure) {
      setNotice({ ok: false, text: failure instanceof ApiError ? failure.message : String(failure) });
    } finally {
      setBusy(false);
      setRevoking(undefined);
      onChanged();
    }
  };
  const state = (token: AccessToken) => (token.revokedAt ? t('revoked', { by: token.revokedBy ?? '' }) : token.active ? t('active') : t('expired'));
  return (
    <>
      {notice && <p role={notice.ok ? 'status' : 'alert'}>{notice.text}</p>}
      {tokens.length === 0 ? (
        <p>{t('none')}</p>
      ) : (
        <table className="access-tokens">
          <thead>
            <tr>
              <th scope="col">{t('name')}</th>
              {showUser && <th scope="col">{t('user')}</th>}
              <th scope="col">{t('roles')}</th>
              <th scope="col">{t('tenant')}</th>
              <th scope="col">{t('created')}</th>
              <th scope="col">{t('expires')}</th>
              <th scope="col">{t('lastUsed')}</th>
              <th scope="col">{t('state')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {tokens.map((token) => (
              <tr key={token.tokenId} data-token-id={token.tokenId}>
                <td>{token.name}</td>
                {showUser && <td>{token.userCode}</td>}
                <td>{token.roles.join(', ')}</td>
                <td>{token.accountNo}</td>
                <td>{formatInstant(token.createdAt, language)}</td>
                <td>{formatInstant(token.expiresAt, language)}</td>
                <td>{token.lastUsedAt ? t('lastUsedFrom', { at: formatInstant(token.lastUsedAt, language), ip: token.lastUsedIp ?? '' }) : t('never')}</td>
                <td>{state(token)}</td>
                <td>
                  {token.active && (
                    <button type="button" className="danger" onClick={() => setRevoking(token)}>
                      {t('revoke')}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Modal open={revoking !== undefined} title={t('revokeTitle', { name: revoking?.name ?? '' })} onClose={() => setRevoking(undefined)}>
        <p>{t('revokeWarning')}</p>
        <p>
          <button type="button" className="danger" disabled={busy} onClick={() => revoking && void revoke(revoking)}>
            {busy ? t('working') : t('confirmRevoke')}
          </button>{' '}
          <button type="button" onClick={() => setRevoking(undefined)}>
            {t('back')}
          </button>
        </p>
      </Modal>
    </>
  );
}
