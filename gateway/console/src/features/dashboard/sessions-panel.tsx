import { answer, platform } from '../../shell/api.ts';
import { useT } from '../../shell/i18n.tsx';
import { TimeChart } from '../charts/index.ts';
import { useLoad } from '../../shell/use-load.ts';
import { dashboardMessages } from './messages.ts';

/**
 * Logins to the tenant per day over the last 14 days (GET /api/session/daily): a session path, the
 * operators', so only a super user's dashboard shows it.
 */
export function SessionsPanel({ crProcessId }: { crProcessId: number }) {
  const t = useT(dashboardMessages);
  const days = useLoad((signal) => answer(platform.GET('/api/session/daily', { params: { query: { days: 14, crProcessId } }, signal })), [crProcessId]);
  const data = days.value ?? [];
  const total = data.reduce((sum, day) => sum + day.count, 0);
  return (
    <section className="dash-panel" aria-labelledby="dash-sessions" aria-busy={days.loading}>
      <h2 id="dash-sessions">{t('sessions')}</h2>
      {days.error && <p role="alert">{days.error}</p>}
      {!days.value && !days.error && <p>{t('loading')}</p>}
      {days.value && (
        <TimeChart
          title={t('sessionsTitle')}
          description={t('sessionsDesc', { first: data[0]?.day ?? '', last: data.at(-1)?.day ?? '', total })}
          labelHeader={t('day')}
          valueHeader={t('sessions')}
          points={data.map((day) => ({ label: day.day.slice(5), value: day.count }))}
        />
      )}
    </section>
  );
}
