import { useId } from 'react';
import type { Statistics } from '@platform/client/schema.d.ts';
import { answer, platform } from '../../shell/api.ts';
import { defineMessages, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { ChartTable } from './chart-table.tsx';
import './charts.css';

const messages = defineMessages({
  en: {
    title: '{name}: {total} records',
    description: '{active} active and {passive} passive of {total}',
    state: 'State',
    count: 'Records',
    active: 'Active',
    passive: 'Passive',
    total: 'Total',
    loading: 'Loading statistics…',
  },
  tr: {
    title: '{name}: {total} kayıt',
    description: '{total} kaydın {active} tanesi aktif, {passive} tanesi pasif',
    state: 'Durum',
    count: 'Kayıt',
    active: 'Aktif',
    passive: 'Pasif',
    total: 'Toplam',
    loading: 'İstatistikler yükleniyor…',
  },
});

const WIDTH = 320;
const HEIGHT = 18;

/**
 * The statistics picture of one entity: a single bar split into its active and passive records,
 * the counts written beside it. A generic list shows it over its table; the SVG is named by <title>
 * and <desc> and the counts are in a visually hidden table.
 *
 * @example
 * <StatsBarView name="Branches" stats={{ totalCount: 10, activeCount: 8, passiveCount: 2 }} />
 */
export function StatsBarView({ name, stats }: { name: string; stats: Statistics }) {
  const t = useT(messages);
  const id = useId();
  const vars = { name, total: stats.totalCount, active: stats.activeCount, passive: stats.passiveCount };
  const activeWidth = stats.totalCount > 0 ? (stats.activeCount / stats.totalCount) * WIDTH : 0;
  return (
    <figure className="chart stats-bar">
      <svg className="chart-svg" viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width={WIDTH} height={HEIGHT} role="img" aria-labelledby={`${id}-t ${id}-d`}>
        <title id={`${id}-t`}>{t('title', vars)}</title>
        <desc id={`${id}-d`}>{t('description', vars)}</desc>
        <g aria-hidden="true">
          <rect className="chart-track" x={0} y={0} width={WIDTH} height={HEIGHT} rx={4} />
          <rect className="chart-tone-ok" x={0} y={0} width={activeWidth} height={HEIGHT} rx={4} />
        </g>
      </svg>
      <figcaption className="chart-caption">
        <strong>{name}</strong> · {t('active')}: {stats.activeCount} · {t('passive')}: {stats.passiveCount} · {t('total')}: {stats.totalCount}
      </figcaption>
      <ChartTable
        caption={t('title', vars)}
        labelHeader={t('state')}
        valueHeader={t('count')}
        rows={[
          { label: t('active'), value: String(stats.activeCount) },
          { label: t('passive'), value: String(stats.passiveCount) },
          { label: t('total'), value: String(stats.totalCount) },
        ]}
      />
    </figure>
  );
}

/**
 * Reads `GET /api/{path}/stats?crProcessId=` and shows it as a StatsBarView; nothing when the
 * resource has no statistics, an alert with the platform's message when the call fails.
 */
export function StatsBar({ path, name, crProcessId }: { path: string; name: string; crProcessId: number }) {
  const t = useT(messages);
  const stats = useLoad(
    (signal) => answer(platform.GET('/api/{resource}/stats', { params: { path: { resource: path }, query: { crProcessId } }, signal })),
    [path, crProcessId],
  );
  if (stats.error) return <p role="alert">{stats.error}</p>;
  if (!stats.value) return <p aria-busy="true">{t('loading')}</p>;
  return <StatsBarView name={name} stats={stats.value} />;
}
