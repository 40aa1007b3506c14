import { useQuery } from '@tanstack/react-query';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { answer, platform } from '../shell/api.ts';
import { useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';

/**
 * Total, active and passive records (`GET /api/{path}/stats`, docs/interface.md#crud): the caller's
 * tenant, or for a super user the tenant the list shows. A plain query, not Refine's useCustom,
 * whose resource hooks match the address against every route
 * (docs/adr/0099-the-console-s-speed-fewer-hooks.md).
 */
export function StatsStrip({ resource, crProcessId, superUser }: { resource: ConsoleResource; crProcessId: number; superUser: boolean }) {
  const t = useT(crudMessages);
  const query = superUser ? { crProcessId } : {};
  const { data: stats, isError } = useQuery({
    queryKey: ['data', 'default', resource.path, 'stats', query],
    queryFn: () => answer(platform.GET('/api/{resource}/stats', { params: { path: { resource: resource.path }, query } })),
    retry: false,
  });
  if (isError || !stats) return null;
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
