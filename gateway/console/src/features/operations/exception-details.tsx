import { useContext } from 'react';
import type { ExceptionEntry } from '@platform/client/schema.d.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { formatInstant } from './format.ts';
import { operationsMessages } from './messages.ts';

/** One exception-log entry in full: what failed, where, for whom, and its stack. */
export function ExceptionDetails({ entry }: { entry: ExceptionEntry }) {
  const t = useT(operationsMessages);
  const language = useContext(LanguageContext);
  const rows: [string, string | number | null][] = [
    [t('createdAt'), formatInstant(entry.createdAt, language)],
    [t('service'), entry.service],
    [t('errorCode'), entry.errorCode],
    [t('message'), entry.message],
    [t('method'), entry.method],
    [t('path'), entry.path],
    [t('userCode'), entry.userCode],
    [t('tenant'), entry.crProcessId],
    [t('requestId'), entry.requestId],
    [t('projectCode'), entry.projectCode],
  ];
  return (
    <article className="ops-entry" aria-labelledby={`entry-${entry.refId}`}>
      <h2 id={`entry-${entry.refId}`}>{t('entry', { refId: entry.refId })}</h2>
      <dl>
        {rows.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ?? '—'}</dd>
          </div>
        ))}
      </dl>
      {entry.stack && (
        <details>
          <summary>{t('stack')}</summary>
          <pre tabIndex={0}>{entry.stack}</pre>
        </details>
      )}
    </article>
  );
}
