import { useContext } from 'react';
import { answer, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { Meter } from '../charts/index.ts';
import { useLoad } from '../../shell/use-load.ts';
import { formatBytes, formatCount, formatPercent } from './figures.ts';
import { dashboardMessages } from './messages.ts';

/** The tenant's document storage against its quota (GET /api/dms-file/usage: what an upload's quota check sums). */
export function StoragePanel({ crProcessId }: { crProcessId: number }) {
  const t = useT(dashboardMessages);
  const language = useContext(LanguageContext);
  const usage = useLoad((signal) => answer(platform.GET('/api/dms-file/usage', { params: { query: { crProcessId } }, signal })), [crProcessId]);
  const data = usage.value;
  const used = data ? formatBytes(data.usedBytes, language) : '';
  const files = data ? formatCount(data.fileCount, language) : '';
  const quota = data?.storageQuotaBytes ?? undefined;
  const summary = !data
    ? ''
    : quota === undefined
      ? t('storageNoQuota', { used, files })
      : t('storageOf', { used, files, quota: formatBytes(quota, language), percent: formatPercent(quota > 0 ? data.usedBytes / quota : 1, language) });
  return (
    <section className="dash-panel" aria-labelledby="dash-storage" aria-busy={usage.loading}>
      <h2 id="dash-storage">{t('storage')}</h2>
      {usage.error && <p role="alert">{usage.error}</p>}
      {!data && !usage.error && <p>{t('loading')}</p>}
      {data && (
        <Meter
          title={t('storageTitle')}
          summary={summary}
          used={data.usedBytes}
          limit={quota}
          labelHeader={t('storageTitle')}
          valueHeader={t('amount')}
          rows={[
            { label: t('used'), value: used },
            { label: t('quota'), value: quota === undefined ? t('none') : formatBytes(quota, language) },
            { label: t('files'), value: files },
          ]}
        />
      )}
    </section>
  );
}
