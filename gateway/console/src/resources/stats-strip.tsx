import { useCustom } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { StatsBarView, type Statistics } from '../features/charts/stats-bar.tsx';

/**
 * Total, active and passive records (`GET /api/{path}/stats`, docs/interface.md#crud) as a bar with
 * its figures: the caller's tenant, or for a super user the tenant the list shows.
 */
export function StatsStrip({ resource, crProcessId, superUser }: { resource: ConsoleResource; crProcessId: number; superUser: boolean }) {
  const { result, query } = useCustom<Statistics & Record<string, unknown>>({
    url: `/api/${resource.path}/stats`,
    method: 'get',
    config: { query: superUser ? { crProcessId: String(crProcessId) } : undefined },
    queryOptions: { retry: false },
  });
  if (query.isError || !result?.data) return null;
  return <StatsBarView name={resource.plural} stats={result.data} />;
}
