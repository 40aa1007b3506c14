/**
 * A file's text on its page (GET /api/dms-file/{id}/text): whether its words were read, in a sentence
 * per state, why not (FAILED, SKIPPED) or where the text stops short, how it was read (method,
 * language, pages), and the text itself, preformatted in a box of its own that scrolls; a long text
 * shows its first part until asked for all. While the file waits or is being read the panel asks
 * again every few seconds. "Read again" (dms-file:write) sends POST .../text/extract.
 */
import { useContext, useEffect, useState } from 'react';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { extractFileText, fileText, type FileText } from './dms.api.ts';
import { FactList } from './fact-list.view.tsx';
import { formatInstant } from './format.ts';
import { textMessages } from './text.messages.ts';

/** How many characters a text shows before "Show all": enough to read, few enough for a phone. */
export const SHOWN_FIRST = 50_000;
/** How often a text still to be read is asked for again. */
const POLL_MS = 2_000;

const METHODS = { 'text-layer': 'methodTextLayer', ocr: 'methodOcr', plain: 'methodPlain' } as const;
const LANGUAGES = { english: 'languageEnglish', turkish: 'languageTurkish' } as const;

export function FileTextPanel({ fileId, fileName }: { fileId: number; fileName: string }) {
  const t = useT(textMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const [text, setText] = useState<FileText>();
  const [loadError, setLoadError] = useState<string>();
  const [round, setRound] = useState(0);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [all, setAll] = useState(false);
  const [note, setNote] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    fileText(fileId, controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setText(answer);
        setLoadError(undefined);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) setLoadError(failure instanceof Error ? failure.message : String(failure));
      },
    );
    return () => controller.abort();
  }, [fileId, round]);
  // a text still to be read (waiting, being read) is asked for again until its run ends
  const waiting = text !== undefined && (text.status === 'PENDING' || text.status === 'RUNNING');
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(() => setRound((n) => n + 1), POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, text]);

  const readAgain = async () => {
    setBusy(true);
    setNote('');
    try {
      setText(await extractFileText(fileId));
      setAll(false);
      setError(undefined);
      setNote(t('readAgainStarted'));
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const facts: [string, string][] = text
    ? [
        [t('method'), text.method ? t(METHODS[text.method]) : ''],
        [t('language'), text.language ? t(LANGUAGES[text.language]) : ''],
        [t('pages'), text.pages === null ? '' : text.pages.toLocaleString(language)],
        [t('characters'), text.status === 'DONE' ? text.characters.toLocaleString(language) : ''],
        [t('finishedAt'), formatInstant(text.finishedAt, language)],
        [t('attempts'), text.attempts > 0 ? text.attempts.toLocaleString(language) : ''],
      ]
    : [];
  const body = text?.text ?? '';
  const shown = all || body.length <= SHOWN_FIRST ? body : body.slice(0, SHOWN_FIRST);

  return (
    <section aria-labelledby="doc-text-heading" className="doc-text-panel" aria-busy={waiting}>
      <h2 id="doc-text-heading">{t('text')}</h2>
      {loadError && !text ? <p role="alert">{loadError}</p> : null}
      {text ? (
        <>
          <p className={`doc-text-status doc-text-${text.status.toLowerCase()}`} data-status={text.status}>
            {t(`status${text.status}`)}
          </p>
          {text.reason && (text.status === 'FAILED' || text.status === 'SKIPPED' || text.truncated) ? (
            <p className="doc-text-reason">
              {text.truncated && text.status === 'DONE' ? t('truncated') : t('reason')}: {text.reason}
            </p>
          ) : null}
          <FactList facts={facts} />
        </>
      ) : (
        !loadError && <p aria-busy="true">{t('loading')}</p>
      )}
      {text?.status === 'DONE' ? (
        body === '' ? (
          <p>{t('noText')}</p>
        ) : (
          <>
            {shown.length < body.length ? (
              <p className="doc-hint">
                {t('shownPart', { shown: shown.length.toLocaleString(language), total: body.length.toLocaleString(language) })}{' '}
                <button type="button" onClick={() => setAll(true)}>
                  {t('showAll')}
                </button>
              </p>
            ) : null}
            {/* a box that scrolls is reached by the keyboard (Tab) and named for a screen reader */}
            <div className="doc-text-box" role="region" aria-label={t('textOf', { name: fileName })} tabIndex={0}>
              <pre>{shown}</pre>
            </div>
          </>
        )
      ) : null}
      {access.can('dms-file:write') ? (
        <p className="doc-action-row">
          <button type="button" disabled={busy || text?.status === 'RUNNING'} onClick={() => void readAgain()}>
            {t('readAgain')}
          </button>
        </p>
      ) : null}
      <p role="status" className="doc-notice">
        {note}
      </p>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  );
}
