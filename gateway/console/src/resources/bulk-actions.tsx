import { useContext, useEffect, useRef, useState, type ComponentType, type RefObject } from 'react';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { errorOf } from '../shell/api.ts';
import { useAccess } from '../shell/access.tsx';
import type { BulkItem, BulkResult, Row } from '../shell/console-paths.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { Dialog } from '../ui/dialog.tsx';
import { notify } from '../ui/toasts.tsx';
import { bulkMessages } from './bulk-messages.ts';
import { sendBulk } from './bulk-request.ts';
import { clerkError } from './error-words.ts';
import { recordName } from './record-name.ts';

/** What an action on a list's selection is given: the rows selected (of the page shown), and what to call once it is done. */
export interface SelectionActionProps {
  resource: ConsoleResource;
  rows: readonly Row[];
  /** Clears the selection and reloads the list. */
  done: () => void;
}

export type SelectionAction = ComponentType<SelectionActionProps>;

/**
 * The slot for further actions on a selection, shown in the selection bar after its own (Delete,
 * Set active, Set passive), for every list: the export of a selection adds its component here. An
 * action here is offered to every user who may list the resource; it checks its own roles.
 */
export const SELECTION_ACTIONS: readonly SelectionAction[] = [];

/** The bulk actions the user's live roles allow on `resource` (docs/adr/0126-the-console-offers-what-the-live-roles-allow.md). */
export function useBulkOffer(resource: ConsoleResource): { delete: boolean; status: boolean; any: boolean } {
  const access = useAccess();
  const remove = resource.operations.delete && access.can(`${resource.path}:delete`);
  const status = resource.operations.update && resource.fields.some((field) => field.name === 'status') && access.can(`${resource.path}:write`);
  return { delete: remove, status, any: remove || status || SELECTION_ACTIONS.length > 0 };
}

/** The keys of the selected rows among `rows` (the page shown), and the ways to change them. */
export function useSelection(rows: readonly Row[], key: string) {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const keyOf = (row: Row) => String(row[key]);
  // only rows of the page shown count: a page change or a reload drops the rest
  const selected = rows.filter((row) => chosen.has(keyOf(row)));
  return {
    selected,
    isSelected: (row: Row) => chosen.has(keyOf(row)),
    toggle: (row: Row, on: boolean) =>
      setChosen((before) => {
        const next = new Set(before);
        if (on) next.add(keyOf(row));
        else next.delete(keyOf(row));
        return next;
      }),
    toggleAll: (on: boolean) => setChosen(on ? new Set(rows.map(keyOf)) : new Set()),
    clear: () => setChosen(new Set()),
  };
}

/**
 * The checkbox of the header: all rows of the page, mixed when some are selected. `box` is its
 * element, where the list puts the focus back once the selection's bar is gone.
 */
export function SelectAllBox({
  rows,
  selected,
  onChange,
  box,
}: {
  rows: number;
  selected: number;
  onChange: (on: boolean) => void;
  box: RefObject<HTMLInputElement | null>;
}) {
  const t = useT(bulkMessages);
  useEffect(() => {
    if (box.current) box.current.indeterminate = selected > 0 && selected < rows;
  }, [box, rows, selected]);
  return (
    <input
      ref={box}
      type="checkbox"
      aria-label={t('selectAll')}
      checked={rows > 0 && selected === rows}
      disabled={rows === 0}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

/** A row's checkbox, named by the record's name. */
export function SelectRowBox({ resource, row, checked, onChange }: { resource: ConsoleResource; row: Row; checked: boolean; onChange: (on: boolean) => void }) {
  const t = useT(bulkMessages);
  return (
    <input
      type="checkbox"
      aria-label={t('selectRow', { name: recordName(resource, row) })}
      checked={checked}
      onChange={(event) => onChange(event.target.checked)}
    />
  );
}

type Action = 'delete' | 'setActive' | 'setPassive';

/** A failed row as shown: its name and the reason in a clerk's words. */
interface Failure {
  key: string;
  text: string;
}

/**
 * The bar over a list while rows are selected: how many, and Delete (after a confirmation whose
 * focus starts on Cancel), Set active and Set passive where the roles allow, each one bulk request
 * (docs/interface.md#bulk-changes) for the selection; then a message of what was done, the rows not
 * done each with its reason, and the list reloaded. Then the actions of SELECTION_ACTIONS.
 */
export function SelectionBar({
  resource,
  rows,
  offer,
  done,
}: {
  resource: ConsoleResource;
  rows: readonly Row[];
  offer: ReturnType<typeof useBulkOffer>;
  done: () => void;
}) {
  const t = useT(bulkMessages);
  const language = useContext(LanguageContext);
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [failures, setFailures] = useState<{ title: string; rows: Failure[] } | null>(null);
  const failuresRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (failures) failuresRef.current?.focus();
  }, [failures]);

  const itemOf = (action: Action, row: Row): BulkItem => {
    const key = row[resource.key] as string | number;
    const version = typeof row.version === 'number' ? row.version : undefined;
    if (action === 'delete') return { action: 'delete', key, ...(version === undefined ? {} : { version }) };
    return { action: 'update', key, record: { version, status: action === 'setActive' } };
  };
  const reasonOf = (result: BulkResult): string => {
    if (result.notRun || result.status === undefined) return t('notRun');
    // as a single call's error answer: a 403 has the shell read the roles again, a 401 ends the session
    return clerkError(errorOf(new Response(null, { status: result.status }), result.error), resource, language).text;
  };

  const run = async (action: Action) => {
    const chosen = [...rows];
    const label = t(action);
    setBusy(true);
    setConfirming(false);
    try {
      const results = await sendBulk(
        resource.path,
        chosen.map((row) => itemOf(action, row)),
      );
      const failed = results.filter((result) => result.notRun || (result.status ?? 0) >= 300);
      const succeeded = results.length - failed.length;
      notify(t('done', { action: label, succeeded, count: chosen.length }));
      setFailures(
        failed.length === 0
          ? null
          : {
              title: t('resultTitle', { action: label, failed: failed.length, count: chosen.length }),
              rows: failed.map((result) => {
                const row = chosen[result.index] ?? {};
                return { key: String(row[resource.key]), text: t('failedRow', { name: recordName(resource, row), reason: reasonOf(result) }) };
              }),
            },
      );
    } catch (error) {
      setFailures({
        title: t('resultTitle', { action: label, failed: chosen.length, count: chosen.length }),
        rows: [{ key: '', text: clerkError(error, resource, language).text }],
      });
    } finally {
      setBusy(false);
      done();
    }
  };

  return (
    <>
      {rows.length > 0 ? (
        <div className="selection-bar" role="region" aria-label={t('selectionActions')}>
          <p className="selection-count" aria-live="polite">
            {t('selected', { count: rows.length })}
          </p>
          <div className="actions">
            {offer.delete ? (
              <button type="button" className="danger" disabled={busy} onClick={() => setConfirming(true)}>
                {t('delete')}
              </button>
            ) : null}
            {offer.status ? (
              <>
                <button type="button" disabled={busy} onClick={() => void run('setActive')}>
                  {t('setActive')}
                </button>
                <button type="button" disabled={busy} onClick={() => void run('setPassive')}>
                  {t('setPassive')}
                </button>
              </>
            ) : null}
            {SELECTION_ACTIONS.map((Extra, index) => (
              <Extra key={index} resource={resource} rows={rows} done={done} />
            ))}
            <button type="button" disabled={busy} onClick={done}>
              {t('clearSelection')}
            </button>
          </div>
          {busy ? <p aria-live="polite">{t('working')}</p> : null}
        </div>
      ) : null}
      <Dialog open={confirming} title={t('deleteTitle', { count: rows.length })} onClose={() => setConfirming(false)}>
        <p>{t('deleteText')}</p>
        <div className="actions">
          <button type="button" onClick={() => setConfirming(false)} data-autofocus>
            {t('cancel')}
          </button>
          <button type="button" className="danger" disabled={busy} onClick={() => void run('delete')}>
            {t('delete')}
          </button>
        </div>
      </Dialog>
      {failures ? (
        <div className="bulk-failures" role="alert" tabIndex={-1} ref={failuresRef}>
          <p>
            <strong>{failures.title}</strong>
          </p>
          <ul>
            {failures.rows.map((failure, index) => (
              <li key={`${failure.key}-${index}`}>{failure.text}</li>
            ))}
          </ul>
          <button type="button" onClick={() => setFailures(null)}>
            {t('close')}
          </button>
        </div>
      ) : null}
    </>
  );
}
