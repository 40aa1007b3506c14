import { useCustom } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';

interface Stats {
  totalCount: number;
  activeCount: number;
  passiveCount: number;
}

/**
 * Total, active and passive records (`GET /api/{path}/stats`, docs/interface.md#crud): the caller's
 * tenant, or for a super user the tenant the list shows.
 */
export function StatsStrip({ resource, crProcessId, superUser }: { resource: ConsoleResource; crProcessId: number; superUser: boolean }) {
  const t = useT(crudMessages);
  const { result, query } = useCustom<Stats & Record<string, unknown>>({
    url: `/api/${resource.path}/stats`,
    method: 'get',
    config: { query: superUser ? { crProcessId: String(crProcessId) } : undefined },
    queryOptions: { retry: false },
  });
  if (query.isError || !result?.data) return null;
  const stats = result.data;
  return (
    <dl className="stats-strip" aria-label={t('statistics')}>
      <div>
        <dt>{t('total')}</dt>
        <dd>{stats.totalCount}</dd>
      </div>
      <div>
        <dt>{t('active')}</dt>
        <dd>{stats.activeCount}</dd>
      </div>
      <div>
        <dt>{t('passive')}</dt>
        <dd>{stats.passiveCount}</dd>
      </div>
    </dl>
  );
}
