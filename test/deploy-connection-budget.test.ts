/**
 * The connection budget (deploy/README.md, "Connection budget"; docs/adr/0147-a-connection-budget.md):
 * at every autoscaler's maximum, with a rolling update's surge on top, the pods of each production
 * layer ask no more of PgBouncer than its max_client_conn, and the poolers and the pods that go
 * straight to the primary no more of PostgreSQL than the Cluster's max_connections less its
 * superuser slots and a reserve. Each pod's pools are read from its environment by the module the
 * processes read them with (libs/service-kit/src/config/database-pools.ts), and the table of
 * deploy/README.md is the figures computed here (drift fails).
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { POOL_VARIABLES } from '@platform/service-kit/config/database-pools.ts';
import { DEPLOY, LAYERS, WORKERS } from './helpers/deploy-layout.ts';
import { budget, consumers, DATABASE_RESERVE, sumOf, type Cluster } from './helpers/deploy-connections.ts';
import { Rendered, render } from './helpers/deploy-render.ts';
import { app } from './helpers/deploy-objects.ts';

const PRODUCTION = LAYERS.filter((layer) => layer.startsWith('production'));

for (const layer of PRODUCTION) {
  test(`${layer}: at the autoscalers' maxima the pods fit PgBouncer's max_client_conn, and the poolers with the direct pods fit max_connections less the reserve`, (t) => {
    const { clients, server } = budget(render(layer));
    t.true(clients.asked <= clients.allowed, `${clients.asked} client connections against max_client_conn ${clients.allowed}`);
    t.true(
      server.asked <= server.allowed,
      `${server.pooled} pooled (${server.poolers} PgBouncers x ${server.perPooler}) and ${server.direct} direct against ${server.maxConnections} less ${server.reserved}`,
    );
  });
}

test('the layers without the database in the cluster have no Cluster; every production layer has one, so none is left unchecked', (t) => {
  for (const layer of LAYERS) t.is(render(layer).all<Cluster>('Cluster').length, PRODUCTION.includes(layer) ? 1 : 0, layer);
});

test('every Deployment that reaches PostgreSQL sets its pools explicitly, from the variables the processes read', (t) => {
  for (const layer of LAYERS) {
    const rendered = render(layer);
    const names = consumers(rendered)
      .filter((c) => !c.name.includes(' '))
      .map((c) => c.name);
    t.deepEqual(names.sort(), ['bpm-svc', 'core-svc', 'dms-svc', ...Object.keys(WORKERS)].sort(), `${layer}: the services and workers reach PostgreSQL`);
    for (const name of names) {
      const env = app(rendered.deployment(name)).env ?? [];
      const expected = name in WORKERS ? [POOL_VARIABLES.orm.name, POOL_VARIABLES.jobs.name] : [POOL_VARIABLES.orm.name];
      for (const variable of expected) t.regex(env.find((entry) => entry.name === variable)?.value ?? '', /^[1-9]\d*$/, `${layer}: ${name} sets ${variable}`);
    }
  }
});

test('the budget follows the manifests: more gateways change nothing, more services past the limit fail it', (t) => {
  const production = render('production');
  const scaled = (name: string, maxReplicas: number) =>
    new Rendered(
      production.layer,
      production.objects.map((object) =>
        object.kind === 'HorizontalPodAutoscaler' && object.metadata?.name === name
          ? ({ ...object, spec: { ...(object as unknown as IHorizontalPodAutoscaler).spec, maxReplicas } } as typeof object)
          : object,
      ),
    );
  const before = budget(production);
  t.deepEqual(budget(scaled('gateway', 100)), before, 'the gateway holds no database connection');
  const more = budget(scaled('core-svc', 200));
  t.true(more.clients.asked > more.clients.allowed, `200 core-svc pods: ${more.clients.asked} client connections`);
  t.is(more.server.pooled, before.server.pooled, 'behind the pooler, PostgreSQL sees the same pooled connections');
  t.is(more.server.direct, before.server.direct, 'the migration locks go through the pooler too (transaction-scoped, docs/adr/0146)');
});

test("the services' and workers' pools and migration lock go through the pooler, the migrate Job and the daily dump straight to the primary", (t) => {
  for (const layer of PRODUCTION) {
    for (const c of consumers(render(layer))) {
      for (const pool of c.pools) {
        // the migration lock is transaction-scoped (docs/adr/0146), so it needs no session of its own
        const direct = c.name.includes(' ');
        t.is(pool.route, direct ? 'primary' : 'pooler', `${layer}: ${c.name}, ${pool.purpose}`);
      }
    }
  }
});

// ---------------------------------------------------------------------------------------------
// deploy/README.md's table is these figures

/** The rows of the first Markdown table after `heading` in deploy/README.md, each a list of cells. */
function tableAfter(heading: string, first: string): string[][] {
  const text = readFileSync(join(DEPLOY, 'README.md'), 'utf8');
  const start = text.indexOf(heading);
  if (start < 0) throw new Error(`deploy/README.md has no ${heading}`);
  const lines = text.slice(start).split('\n');
  const header = lines.findIndex((line) => line.startsWith(`| ${first} |`));
  if (header < 0) throw new Error(`deploy/README.md: no table starting "| ${first} |" after ${heading}`);
  const rows: string[][] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

test("deploy/README.md's per-pod budget is production's, pod by pod", (t) => {
  const rows = tableAfter('### Connection budget', 'Pods');
  const expected = consumers(render('production')).map((c) => [
    c.name.includes(' ') ? `${c.name.split(' ')[0]} \`${c.name.split(' ')[1]}\`` : `\`${c.name}\``,
    c.pools.map((pool) => `${pool.purpose} ${pool.size}`).join(', '),
    String(c.perPod),
    String(c.pods),
    String(c.perPod * c.pods),
    String(sumOf([c], 'pooler')),
    String(sumOf([c], 'primary')),
  ]);
  t.deepEqual(rows, expected);
});

test("deploy/README.md's limits are production's", (t) => {
  const { clients, server } = budget(render('production'));
  const rows = tableAfter('### Connection budget', 'Limit');
  t.deepEqual(rows, [
    ['PgBouncer `max_client_conn` (one instance: the Service may send every client to one)', String(clients.asked), String(clients.allowed)],
    [
      `PostgreSQL \`max_connections\` ${server.maxConnections} less ${server.reserved - DATABASE_RESERVE} superuser slots and a reserve of ${DATABASE_RESERVE}; asked: ${server.poolers} PgBouncers x ${server.perPooler} and ${server.direct} direct`,
      String(server.asked),
      String(server.allowed),
    ],
  ]);
});
