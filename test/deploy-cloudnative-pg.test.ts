/**
 * The database in the cluster (deploy/components/cloudnative-pg, deploy/README.md "The database in
 * the cluster", docs/adr/0148-a-replicated-database-in-the-cluster.md), in every production layer:
 * a CloudNativePG Cluster of three instances backed up by the Barman Cloud plugin to a bucket whose
 * credentials are referred to, a PgBouncer Pooler in transaction mode in front of the primary, the
 * services' and workers' DATABASE_URL on the pooler, the migrate Job's and the dump's straight on the
 * primary, and the NetworkPolicies that let exactly those through. Every object also passes its
 * CRD's schema (helpers/deploy-crds.ts, in test/deploy-workloads.test.ts); here, that the schemas
 * refuse what the operator would.
 */
import test from 'ava';
import type { ICronJob } from 'kubernetes-models/batch/v1/CronJob';
import { BARMAN_CLOUD_PLUGIN, customResourceErrors } from './helpers/deploy-crds.ts';
import { databasePods, DATABASE_PORTS, OPERATOR_NAMESPACE } from './helpers/deploy-database.ts';
import type { Cluster, Pooler } from './helpers/deploy-connections.ts';
import { LAYERS, MIGRATE_JOB, MONITORING_NAMESPACE, SERVING_SECRET_NAME, WORKERS } from './helpers/deploy-layout.ts';
import { egressAllowed, ingressAllowed } from './helpers/deploy-network-policy.ts';
import { app, podLabels } from './helpers/deploy-objects.ts';
import { only, render, type K8sObject } from './helpers/deploy-render.ts';
import { MARK_LEAKPROOF } from '@platform/service-kit/db/leakproof.ts';

const PRODUCTION = LAYERS.filter((layer) => layer.startsWith('production'));
const CLIENTS = ['core-svc', 'bpm-svc', 'dms-svc', ...Object.keys(WORKERS)];

interface ObjectStore extends K8sObject {
  spec: { retentionPolicy?: string; configuration: { destinationPath: string; s3Credentials?: Record<string, { name: string; key: string }> } };
}
interface ScheduledBackup extends K8sObject {
  spec: { schedule: string; cluster: { name: string }; method?: string; pluginConfiguration?: { name: string } };
}
type FullCluster = Cluster & {
  spec: {
    bootstrap?: { initdb?: { database?: string; owner?: string; postInitApplicationSQL?: string[] } };
    plugins?: { name: string; isWALArchiver?: boolean; parameters?: Record<string, string> }[];
  };
};

for (const layer of PRODUCTION) {
  const rendered = render(layer);

  test(`${layer}: the new database marks the lists' filter functions LEAKPROOF, as the superuser, exactly those the services check for`, (t) => {
    const cluster = rendered.one<FullCluster>('Cluster', 'platform-db');
    // docs/adr/0151-row-level-security-the-second-wall.md: without them a filter under the policies reads every row of the tenant
    t.deepEqual(cluster.spec.bootstrap?.initdb?.postInitApplicationSQL, [...MARK_LEAKPROOF]);
  });

  test(`${layer}: three instances, WAL and daily base backups through the Barman Cloud plugin into a bucket whose credentials are referred to`, (t) => {
    const cluster = rendered.one<FullCluster>('Cluster', 'platform-db');
    t.is(cluster.spec.instances, 3);
    const plugin = cluster.spec.plugins?.find((p) => p.name === BARMAN_CLOUD_PLUGIN);
    t.true(plugin?.isWALArchiver, 'the plugin archives the WAL');
    const store = rendered.one<ObjectStore>('ObjectStore', plugin?.parameters?.barmanObjectName ?? '');
    t.regex(store.spec.configuration.destinationPath, /^s3:\/\//);
    t.truthy(store.spec.retentionPolicy);
    t.deepEqual(store.spec.configuration.s3Credentials, {
      accessKeyId: { name: 'platform-db-s3', key: 'access-key-id' },
      secretAccessKey: { name: 'platform-db-s3', key: 'secret-access-key' },
    });
    t.false(
      rendered.objects.some((object) => object.kind === 'Secret' && object.metadata?.name === 'platform-db-s3'),
      "the bucket's credentials are the operator's Secret, never rendered",
    );
    const backups = rendered.all<ScheduledBackup>('ScheduledBackup');
    t.is(backups.length, 1);
    t.like(backups[0]?.spec, { cluster: { name: 'platform-db' }, method: 'plugin', pluginConfiguration: { name: BARMAN_CLOUD_PLUGIN } });
    t.regex(backups[0]?.spec.schedule ?? '', /^\d+ \d+ \d+ \* \* \*$/, 'daily (six fields, seconds first)');
  });

  test(`${layer}: the services and workers reach the database through PgBouncer in transaction mode, their sessions, the migrate Job and the dump the primary`, (t) => {
    const cluster = rendered.one<FullCluster>('Cluster', 'platform-db');
    const pooler = rendered.one<Pooler>('Pooler', 'platform-db-pooler-rw');
    t.is(pooler.spec.cluster.name, 'platform-db');
    t.is(pooler.spec.type, 'rw', 'in front of the primary');
    t.is(pooler.spec.pgbouncer.poolMode, 'transaction');
    const database = cluster.spec.bootstrap?.initdb?.database;
    t.truthy(database);
    for (const name of CLIENTS) {
      const env = app(rendered.deployment(name)).env ?? [];
      const url = new URL(env.find((entry) => entry.name === 'DATABASE_URL')?.value ?? 'invalid:');
      // the pooler's Service has the Pooler's name (the operator's)
      t.is(url.hostname, pooler.metadata?.name ?? 'the Pooler', `${name}: the pooler's Service`);
      t.is(url.port, String(DATABASE_PORTS.postgres));
      t.is(url.pathname, `/${database}`);
      t.is(url.username, '$(DATABASE_USER)');
      // nothing else past the pooler: the migration lock is transaction-scoped (docs/adr/0146)
      t.deepEqual(
        env.filter((entry) => entry.name.startsWith('DATABASE_') && entry.name.endsWith('URL')).map((entry) => entry.name),
        ['DATABASE_URL'],
      );
      // as the serving role, the Cluster's managed role, which owns nothing (docs/adr/0150-a-serving-role-apart-from-the-owner.md)
      t.deepEqual(env.find((entry) => entry.name === 'DATABASE_USER')?.valueFrom?.secretKeyRef, { name: SERVING_SECRET_NAME, key: 'username' });
      t.deepEqual(env.find((entry) => entry.name === 'DATABASE_PASSWORD')?.valueFrom?.secretKeyRef, { name: SERVING_SECRET_NAME, key: 'password' });
    }
    // the operator's Secret <cluster>-app: its uri names <cluster>-rw, the primary, as the owner
    const migrate = only(rendered.job(MIGRATE_JOB).spec?.template.spec?.containers, MIGRATE_JOB);
    t.deepEqual(migrate.env?.find((entry) => entry.name === 'DATABASE_OWNER_URL')?.valueFrom?.secretKeyRef, { name: 'platform-db-app', key: 'uri' });
    // the serving role it grants, by name alone
    t.deepEqual(migrate.env?.find((entry) => entry.name === 'DATABASE_USER')?.valueFrom?.secretKeyRef, { name: SERVING_SECRET_NAME, key: 'username' });
    t.false(
      (migrate.env ?? []).some((entry) => entry.valueFrom?.secretKeyRef?.key === 'password'),
      'the migrator holds no serving password',
    );
    const backup = only(rendered.one<ICronJob>('CronJob', 'backup').spec?.jobTemplate.spec?.template.spec?.containers, 'backup');
    for (const name of ['DATABASE_URL', 'DATABASE_OWNER_URL'])
      t.deepEqual(backup.env?.find((entry) => entry.name === name)?.valueFrom?.secretKeyRef, { name: 'platform-db-app', key: 'uri' }, `the dump's ${name}`);
  });

  test(`${layer}: the serving role is a managed role of the Cluster that may log in and nothing more, its password from its Secret`, (t) => {
    const cluster = rendered.one<FullCluster & { spec: { managed?: { roles?: Record<string, unknown>[] } } }>('Cluster', 'platform-db');
    const roles = cluster.spec.managed?.roles ?? [];
    t.is(roles.length, 1);
    t.like(roles[0], {
      name: 'platform_svc',
      ensure: 'present',
      login: true,
      superuser: false,
      createdb: false,
      createrole: false,
      replication: false,
      bypassrls: false,
      passwordSecret: { name: SERVING_SECRET_NAME },
    });
    t.not(roles[0]?.name, cluster.spec.bootstrap?.initdb?.owner, 'not the owner');
    t.false(
      rendered.objects.some((object) => object.kind === 'Secret' && object.metadata?.name === SERVING_SECRET_NAME),
      'its Secret is never rendered from git',
    );
    t.false('DATABASE_URL' in rendered.config().data);
  });

  test(`${layer}: the pooler admits the services and workers only, the instances the pooler, each other, the platform's database pods, not the gateway`, (t) => {
    const [instance, pgbouncer] = databasePods(rendered);
    if (!instance || !pgbouncer) throw new Error('no database pods');
    const port = DATABASE_PORTS.postgres;
    for (const name of CLIENTS) {
      const labels = podLabels(rendered.deployment(name));
      t.true(egressAllowed(rendered, labels, { pod: pgbouncer.labels }, port), `${name} reaches the pooler`);
      t.true(ingressAllowed(rendered, pgbouncer.labels, pgbouncer.container, { pod: labels }, port), `the pooler admits ${name}`);
      t.true(ingressAllowed(rendered, instance.labels, instance.container, { pod: labels }, port), `the instances admit ${name}'s migration lock`);
    }
    const gateway = podLabels(rendered.deployment('gateway'));
    t.false(egressAllowed(rendered, gateway, { pod: pgbouncer.labels }, port), 'the gateway does not reach the pooler');
    t.false(ingressAllowed(rendered, pgbouncer.labels, pgbouncer.container, { pod: gateway }, port), 'nor does the pooler admit it');
    t.false(ingressAllowed(rendered, instance.labels, instance.container, { pod: gateway }, port), 'nor the instances');
    t.true(egressAllowed(rendered, pgbouncer.labels, { pod: instance.labels }, port), 'the pooler reaches the instances');
    t.true(ingressAllowed(rendered, instance.labels, instance.container, { pod: pgbouncer.labels }, port), 'the instances admit the pooler');
    t.true(ingressAllowed(rendered, instance.labels, instance.container, { pod: instance.labels }, port), 'and each other (replication)');
    t.true(egressAllowed(rendered, instance.labels, { pod: instance.labels }, port));
    const job = rendered.job(MIGRATE_JOB).spec?.template.metadata?.labels ?? {};
    const dump = rendered.one<ICronJob>('CronJob', 'backup').spec?.jobTemplate.spec?.template.metadata?.labels ?? {};
    for (const [who, labels] of [
      ['the migrate Job', job],
      ['the dump', dump],
    ] as const) {
      t.true(egressAllowed(rendered, labels, { pod: instance.labels }, port), `${who} reaches the instances`);
      t.true(ingressAllowed(rendered, instance.labels, instance.container, { pod: labels }, port), `the instances admit ${who}`);
    }
    t.true(
      ingressAllowed(rendered, instance.labels, instance.container, { namespace: OPERATOR_NAMESPACE }, DATABASE_PORTS.status),
      'the operator asks the status',
    );
    t.false(ingressAllowed(rendered, instance.labels, instance.container, { namespace: 'elsewhere' }, DATABASE_PORTS.status));
    t.true(ingressAllowed(rendered, instance.labels, instance.container, { namespace: MONITORING_NAMESPACE }, DATABASE_PORTS.postgresMetrics));
    t.true(egressAllowed(rendered, instance.labels, 'external', 443), 'the instances reach the bucket');
    t.false(egressAllowed(rendered, pgbouncer.labels, { pod: gateway }, 8080), 'the pooler reaches nothing of the platform');
  });
}

test('the layers without the component keep DATABASE_URL of platform-secrets, and no database objects', (t) => {
  for (const layer of LAYERS.filter((name) => !PRODUCTION.includes(name))) {
    const rendered = render(layer);
    for (const kind of ['Cluster', 'Pooler', 'ScheduledBackup', 'ObjectStore']) t.is(rendered.all(kind).length, 0, `${layer}: no ${kind}`);
    for (const name of CLIENTS)
      t.false(
        (app(rendered.deployment(name)).env ?? []).some((entry) => entry.name === 'DATABASE_URL'),
        `${layer}: ${name}`,
      );
  }
});

test("the CRD schemas refuse what the operator's API would: a misspelt field, a pool mode, a PgBouncer setting it does not admit, a five-field schedule", (t) => {
  const production = render('production');
  const cluster = production.one<K8sObject & { spec: Record<string, unknown> }>('Cluster', 'platform-db');
  const pooler = production.one<K8sObject & { spec: Pooler['spec'] }>('Pooler', 'platform-db-pooler-rw');
  const backup = production.one<K8sObject & { spec: Record<string, unknown> }>('ScheduledBackup', 'platform-db-daily');
  const errors = (object: K8sObject) => customResourceErrors(object);
  t.deepEqual(errors(cluster), []);
  t.notDeepEqual(errors({ ...cluster, spec: { ...cluster.spec, instance: 3 } }), [], 'instance for instances');
  t.notDeepEqual(errors({ ...cluster, spec: { ...cluster.spec, instances: 0 } }), []);
  t.notDeepEqual(errors({ ...pooler, spec: { ...pooler.spec, pgbouncer: { poolMode: 'statement' } } }), [], 'CloudNativePG has no statement mode');
  t.notDeepEqual(
    errors({ ...pooler, spec: { ...pooler.spec, pgbouncer: { poolMode: 'transaction', parameters: { listen_port: '6432' } } } }),
    [],
    'a PgBouncer setting the operator keeps to itself',
  );
  t.notDeepEqual(errors({ ...pooler, spec: { ...pooler.spec, pgbouncer: { parameters: { max_client_conn: 1000 } } } }), [], 'values are strings');
  t.notDeepEqual(errors({ ...backup, spec: { ...backup.spec, schedule: '30 2 * * *' } }), [], 'six fields');
});
