/**
 * The database in the cluster (deploy/components/cloudnative-pg): the pods CloudNativePG makes for a
 * Cluster and a Pooler, which the rendered manifests do not hold, with the labels and ports the
 * operator gives them (cloudnative-pg v1.30.0: pkg/utils/labels_annotations.go, pkg/management/url/url.go,
 * pkg/specs/pgbouncer/deployments.go), and where the platform's pods find it.
 */
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { Rendered } from './deploy-render.ts';
import type { Cluster, Pooler } from './deploy-connections.ts';

/** PostgreSQL's and PgBouncer's port, the instance manager's status port, and each one's metrics. */
export const DATABASE_PORTS = { postgres: 5432, status: 8000, postgresMetrics: 9187, pgbouncerMetrics: 9127 } as const;
/** The namespace the operator runs in (its manifest's and Helm chart's default), which asks the instances for their status. */
export const OPERATOR_NAMESPACE = 'cnpg-system';

export interface DatabasePod {
  name: string;
  labels: Record<string, string>;
  container: IContainer;
}

/** The instance pods of each Cluster and the PgBouncer pods of each Pooler the layer renders. */
export function databasePods(rendered: Rendered): DatabasePod[] {
  const ports = (...numbers: number[]) => numbers.map((containerPort) => ({ containerPort, protocol: 'TCP' as const }));
  return [
    ...rendered.all<Cluster>('Cluster').map((cluster) => ({
      name: `Cluster ${cluster.metadata?.name} instance`,
      labels: { 'cnpg.io/cluster': cluster.metadata?.name ?? '', 'cnpg.io/podRole': 'instance' },
      container: { name: 'postgres', ports: ports(DATABASE_PORTS.postgres, DATABASE_PORTS.status, DATABASE_PORTS.postgresMetrics) },
    })),
    ...rendered.all<Pooler>('Pooler').map((pooler) => ({
      name: `Pooler ${pooler.metadata?.name}`,
      labels: { 'cnpg.io/cluster': pooler.spec.cluster.name, 'cnpg.io/poolerName': pooler.metadata?.name ?? '', 'cnpg.io/podRole': 'pooler' },
      container: { name: 'pgbouncer', ports: ports(DATABASE_PORTS.postgres, DATABASE_PORTS.pgbouncerMetrics) },
    })),
  ];
}
