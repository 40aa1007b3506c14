/** The list of uploads: each file's <progress> and percentage, and its cancel, retry or dismiss. */
import { useContext } from 'react';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { documentsMessages } from './documents.messages.ts';
import { formatBytes, percentOf } from './format.ts';
import type { Uploads } from './use-uploads.ts';

export function UploadProgress({ uploads }: { uploads: Uploads }) {
  const t = useT(documentsMessages);
  const language = useContext(LanguageContext);
  if (uploads.items.length === 0) return null;
  return (
    <section aria-labelledby="doc-uploads-heading" className="doc-uploads">
      <h3 id="doc-uploads-heading">{t('uploads')}</h3>
      <ul>
        {uploads.items.map((item) => {
          const percent = percentOf(item.sent, item.total);
          const label = t('progressOf', { name: item.file.name });
          return (
            <li key={item.id} className={`doc-upload doc-upload-${item.state}`}>
              <span className="doc-upload-name">{item.file.name}</span>
              <span className="doc-upload-size">{formatBytes(item.file.size, language)}</span>
              <progress max={100} value={percent} aria-label={label} />
              <span className="doc-upload-percent">{percent}%</span>
              <span className="doc-upload-state" role={item.state === 'failed' ? 'alert' : 'status'}>
                {item.state === 'done'
                  ? t('uploadDone')
                  : item.state === 'cancelled'
                    ? t('uploadCancelled')
                    : item.state === 'failed'
                      ? t('uploadFailed', { message: item.error || t('networkError') })
                      : ''}
              </span>
              {item.state === 'sending' ? (
                <button type="button" onClick={() => uploads.cancel(item.id)} aria-label={`${t('cancel')}: ${item.file.name}`}>
                  {t('cancel')}
                </button>
              ) : null}
              {item.state === 'failed' || item.state === 'cancelled' ? (
                <button type="button" onClick={() => uploads.retry(item.id)} aria-label={`${t('retry')}: ${item.file.name}`}>
                  {t('retry')}
                </button>
              ) : null}
              {item.state !== 'sending' ? (
                <button type="button" onClick={() => uploads.dismiss(item.id)} aria-label={`${t('dismiss')}: ${item.file.name}`}>
                  {t('dismiss')}
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
