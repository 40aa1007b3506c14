import { useContext, useState } from 'react';
import type { RecordActionsProps } from '../../extensions/types.ts';
import { answer, ApiError, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { clerkError } from '../../resources/error-words.ts';
import { Modal } from '../operations/modal.tsx';
import { accrualMessages } from './messages.ts';
import { useValueLabels } from '../../resources/labels.ts';
import { offeredMoves, type AccrualMove } from './moves.ts';

/** POST /api/accrual/{id}/{move}; `note` is the invoice number of an invoice, the reason of a cancel. */
function moveAccrual(id: number, move: AccrualMove, note: string | undefined) {
  const params = { path: { id } };
  switch (move) {
    case 'approve':
      return answer(platform.POST('/api/accrual/{id}/approve', { params }));
    case 'invoice':
      return answer(platform.POST('/api/accrual/{id}/invoice', { params, body: note === undefined ? undefined : { invoiceNo: note } }));
    case 'cancel':
      return answer(platform.POST('/api/accrual/{id}/cancel', { params, body: note === undefined ? undefined : { reason: note } }));
  }
}

/**
 * The accrual's record actions: Approve, Mark invoiced (asking an optional invoice number) and
 * Cancel (asking an optional reason, after a warning), each shown only while the accrual's state
 * allows it and the user's roles grant it. A refused move (409 SVC-SYS-4004 when another user moved
 * it first) is said in a clerk's words (resources/error-words.ts); the record is reloaded after every answer.
 */
export function AccrualActions({ resource, record, refresh }: RecordActionsProps) {
  const t = useT(accrualMessages);
  const language = useContext(LanguageContext);
  const stateName = useValueLabels('accrual', 'accrualStatus');
  const { can } = useAccess();
  const [asking, setAsking] = useState<AccrualMove>();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  const id = String(record.id);
  const moves = offeredMoves(record.accrualStatus, can);

  const run = async (move: AccrualMove, note?: string) => {
    setBusy(true);
    setError(undefined);
    setDone(undefined);
    try {
      const moved = await moveAccrual(Number(record.id), move, note);
      setDone(t('moved', { id, state: stateName(moved.accrualStatus ?? '') }));
      setAsking(undefined);
      refresh();
    } catch (failure) {
      setAsking(undefined);
      setError(clerkError(failure, resource, language).text);
      if (failure instanceof ApiError && failure.status === 409) refresh();
    } finally {
      setBusy(false);
    }
  };

  const ask = (move: AccrualMove) => {
    setText('');
    setAsking(move);
  };

  return (
    <div className="accrual-actions" role="group" aria-label={t('actions')}>
      {moves.includes('approve') && (
        <button type="button" className="primary" disabled={busy} onClick={() => void run('approve')}>
          {t('approve')}
        </button>
      )}
      {moves.includes('invoice') && (
        <button type="button" disabled={busy} onClick={() => ask('invoice')}>
          {t('invoice')}
        </button>
      )}
      {moves.includes('cancel') && (
        <button type="button" className="danger" disabled={busy} onClick={() => ask('cancel')}>
          {t('cancel')}
        </button>
      )}
      {error && <p role="alert">{error}</p>}
      {done && <p role="status">{done}</p>}
      <Modal
        open={asking !== undefined}
        title={asking === 'cancel' ? t('cancelTitle', { id }) : t('invoiceTitle', { id })}
        onClose={() => setAsking(undefined)}
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (!asking) return;
            const value = text.trim();
            void run(asking, value === '' ? undefined : value);
          }}
        >
          {asking === 'cancel' && <p>{t('cancelWarning')}</p>}
          <p>
            <label>
              {asking === 'cancel' ? t('reason') : t('invoiceNo')}
              <br />
              {asking === 'cancel' ? (
                <textarea value={text} maxLength={1000} rows={3} onChange={(event) => setText(event.target.value)} />
              ) : (
                <input value={text} maxLength={64} onChange={(event) => setText(event.target.value)} />
              )}
            </label>
          </p>
          <p className="accrual-actions-buttons">
            <button type="submit" className={asking === 'cancel' ? 'danger' : 'primary'} disabled={busy}>
              {busy ? t('working') : asking === 'cancel' ? t('confirmCancel') : t('confirmInvoice')}
            </button>{' '}
            <button type="button" onClick={() => setAsking(undefined)}>
              {t('back')}
            </button>
          </p>
        </form>
      </Modal>
    </div>
  );
}
