import { useContext } from 'react';
import { answer, platform } from '../../shell/api.ts';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { BarChart, TimeChart, type Tone } from '../charts/index.ts';
import { useLoad } from '../../shell/use-load.ts';
import { useValueLabels } from '../../resources/labels.ts';
import { currenciesOf, formatAmount, formatCount, monthSeries, STATES } from './figures.ts';
import { dashboardMessages } from './messages.ts';

const TONES: Record<(typeof STATES)[number], Tone> = { PENDING: 'warn', APPROVED: 'accent', INVOICED: 'ok', CANCELLED: 'muted' };

/**
 * The tenant's accruals (GET /api/accrual/summary, summed by bpm-svc): how many are in each state,
 * and per currency the amount by state and by month of their period (cancelled ones left out).
 */
export function AccrualPanel({ crProcessId }: { crProcessId: number }) {
  const t = useT(dashboardMessages);
  const stateName = useValueLabels('accrual', 'accrualStatus');
  const language = useContext(LanguageContext);
  const summary = useLoad((signal) => answer(platform.GET('/api/accrual/summary', { params: { query: { crProcessId } }, signal })), [crProcessId]);
  const data = summary.value;
  const counts = STATES.map((state) => ({
    label: stateName(state),
    value: (data?.states ?? []).filter((row) => row.accrualStatus === state).reduce((sum, row) => sum + row.count, 0),
    tone: TONES[state],
  }));
  const list = (bars: readonly { label: string; display?: string; value: number }[]) =>
    bars.map((bar) => `${bar.label} ${bar.display ?? bar.value}`).join(', ');
  return (
    <section className="dash-panel dash-wide" aria-labelledby="dash-accruals" aria-busy={summary.loading}>
      <h2 id="dash-accruals">{t('accruals')}</h2>
      {summary.error && <p role="alert">{summary.error}</p>}
      {!data && !summary.error && <p>{t('loading')}</p>}
      {data && data.states.length === 0 && <p>{t('noAccruals')}</p>}
      {data && data.states.length > 0 && (
        <>
          <BarChart
            title={t('byStateCount')}
            description={t('byStateCountDesc', { list: list(counts.map((bar) => ({ ...bar, display: formatCount(bar.value, language) }))) })}
            labelHeader={t('state')}
            valueHeader={t('count')}
            bars={counts.map((bar) => ({ ...bar, display: formatCount(bar.value, language) }))}
          />
          {currenciesOf(data).map((currency) => {
            const amounts = STATES.map((state) => {
              const row = data.states.find((entry) => entry.accrualStatus === state && entry.currencyCode === currency);
              return {
                label: stateName(state),
                value: Number(row?.amount ?? 0),
                display: formatAmount(row?.amount ?? 0, currency, language),
                tone: TONES[state],
              };
            });
            const months = monthSeries(data, currency);
            return (
              <div key={currency} className="dash-currency">
                <BarChart
                  title={t('byStateAmount', { currency })}
                  description={t('byStateAmountDesc', { currency, list: list(amounts) })}
                  labelHeader={t('state')}
                  valueHeader={t('amount')}
                  bars={amounts}
                />
                {months.length > 0 && (
                  <TimeChart
                    title={t('byMonth', { currency })}
                    description={t('byMonthDesc', { currency, first: months[0]?.month ?? '', last: months.at(-1)?.month ?? '' })}
                    labelHeader={t('month')}
                    valueHeader={t('amount')}
                    points={months.map((month) => ({ label: month.month, value: month.amount, display: formatAmount(month.text, currency, language) }))}
                    formatValue={(value) => formatAmount(value, currency, language)}
                  />
                )}
              </div>
            );
          })}
        </>
      )}
    </section>
  );
}
