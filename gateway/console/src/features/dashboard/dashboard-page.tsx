import { useContext } from 'react';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { StatsBar } from '../charts/index.ts';
import { AccrualPanel } from './accrual-panel.tsx';
import { dashboardMessages } from './messages.ts';
import { SessionsPanel } from './sessions-panel.tsx';
import { StoragePanel } from './storage-panel.tsx';
import './dashboard.css';

/** The entities whose active/passive picture the dashboard shows, by path, named in both languages. */
const STATS: readonly { path: string; name: { en: string; tr: string } }[] = [
  { path: 'business-partner', name: { en: 'Business partners', tr: 'İş ortakları' } },
  { path: 'contract', name: { en: 'Contracts', tr: 'Sözleşmeler' } },
  { path: 'accrual', name: { en: 'Accruals', tr: 'Tahakkuklar' } },
  { path: 'product', name: { en: 'Products', tr: 'Ürünler' } },
];

/**
 * The console's start page for the current tenant: its accruals by state and by month, its document
 * storage against the quota, its entities' active/passive counts and, for super users, its logins per
 * day. Each panel shows only what the user's roles let it read.
 */
export function DashboardPage() {
  const t = useT(dashboardMessages);
  const { me, can } = useAccess();
  const tenant = me.crProcessId;
  const language = useContext(LanguageContext);
  const stats = STATS.filter((entry) => can(`${entry.path}:read`));
  return (
    <section className="dashboard" aria-labelledby="dash-title">
      <h1 id="dash-title" tabIndex={-1}>
        {t('title')}
      </h1>
      <p className="dash-tenant">{t('tenant', { tenant: `${me.accountNo} (${tenant})` })}</p>
      <div className="dash-grid">
        {can('accrual:read') && <AccrualPanel crProcessId={tenant} />}
        {can('dms-file:read') && <StoragePanel crProcessId={tenant} />}
        {me.superUser && <SessionsPanel crProcessId={tenant} />}
        {stats.length > 0 && (
          <section className="dash-panel" aria-labelledby="dash-records">
            <h2 id="dash-records">{t('records')}</h2>
            {stats.map((entry) => (
              <StatsBar key={entry.path} path={entry.path} name={entry.name[language]} crProcessId={tenant} />
            ))}
          </section>
        )}
      </div>
    </section>
  );
}
