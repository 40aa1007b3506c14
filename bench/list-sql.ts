/**
 * The SQL a business-partner list runs, and that SQL run straight on PostgreSQL.
 *
 * `captureListSql` runs the service's own list path in this process (buildListQuery and readPage
 * of libs/service-kit/src/crud, on a MikroORM built by createOrm with bpm-svc's entities, as bpm-svc builds
 * it) and records each statement as MikroORM sends it (MikroORM inlines the parameters and sends
 * plain SQL text, so the text recorded is the text PostgreSQL receives). `timeListSql` then runs
 * those statements with bare `pg` the way readPage does: the page's statements one after the other
 * on one connection while the count runs on a second one; the time is the slower of the two.
 */
import type { MikroORM } from '@mikro-orm/postgresql';
import pg from 'pg';
import { entities, migrationsDir, schemas, SCHEMA } from '../bpm-svc/src/db.ts';
import { businessPartner } from '@platform/contracts/bpm/business-partner.ts';
import { liveOnly } from '../libs/service-kit/src/crud/key-read.ts';
import { readPage } from '../libs/service-kit/src/crud/list-page.ts';
import { buildListQuery } from '../libs/service-kit/src/crud/list-query.ts';
import { createOrm } from '../libs/service-kit/src/db/orm.ts';
import type { PageRequest } from '../libs/kit/src/gen/platform/common/v1/common.ts';
import { BenchError } from './lib.ts';

/** The statements of one list request: the page's (in order) and the count's. */
export interface ListSql {
  page: string[];
  count: string;
  /** What the service's path answered: the page's ids and totalElements. */
  ids: number[];
  totalElements: number;
}

export interface ListSqlCapture {
  capture(request: PageRequest): Promise<ListSql>;
  close(): Promise<void>;
}

/** An ORM like bpm-svc's on `databaseUrl` that records what it sends. */
export async function listSqlCapture(databaseUrl: string): Promise<ListSqlCapture> {
  let recording: string[] | undefined;
  const orm: MikroORM | undefined = await createOrm({
    url: databaseUrl,
    schema: SCHEMA,
    entities,
    migrationsDir,
    poolSize: 2,
    onQuery: (sql, params) => {
      recording?.push(orm ? orm.em.getPlatform().formatQuery(sql, params as unknown[]) : sql);
      return sql;
    },
  });
  const entity = schemas.get(businessPartner.path);
  if (!entity) throw new BenchError('bpm-svc has no business-partner entity');
  return {
    async capture(request) {
      const statements: string[] = [];
      recording = statements;
      const query = buildListQuery(businessPartner, request);
      const { rows, totalElements } = await readPage(orm.em.fork(), entity, businessPartner, query, { ...query.where, ...liveOnly(businessPartner) });
      recording = undefined;
      // the list's statements only (not MikroORM's first connection check)
      const list = statements.filter((sql) => sql.includes('"business_partner'));
      const isCount = (sql: string): boolean => /^select (count\(\*\)|row_count )/i.test(sql);
      const counts = list.filter(isCount);
      if (counts.length !== 1 || counts[0] === undefined) throw new BenchError(`expected one count statement, recorded:\n${statements.join('\n')}`);
      return { page: list.filter((sql) => !isCount(sql)), count: counts[0], ids: rows.map((row) => Number(row.id)), totalElements };
    },
    close: () => orm.close(),
  };
}

/** Two bare `pg` connections to run a list's statements on, as readPage does. */
export interface SqlRunner {
  /** Runs `sql` as readPage does; ms from the start to when both the page and the count are in, and what they answered. */
  run(sql: ListSql): Promise<{ ms: number; ids: number[]; totalElements: number }>;
  close(): Promise<void>;
}

export async function sqlRunner(databaseUrl: string): Promise<SqlRunner> {
  const pageClient = new pg.Client({ connectionString: databaseUrl });
  const countClient = new pg.Client({ connectionString: databaseUrl });
  await Promise.all([pageClient.connect(), countClient.connect()]);
  return {
    async run(sql) {
      const started = performance.now();
      const [rows, count] = await Promise.all([
        (async () => {
          let last: pg.QueryResult | undefined;
          for (const statement of sql.page) last = await pageClient.query(statement);
          return last?.rows ?? [];
        })(),
        countClient.query(sql.count),
      ]);
      const ms = performance.now() - started;
      const first = count.rows[0] as Record<string, unknown> | undefined;
      return { ms, ids: rows.map((row: { id: unknown }) => Number(row.id)), totalElements: Number(first?.count ?? first?.row_count) };
    },
    close: async () => {
      await Promise.all([pageClient.end(), countClient.end()]);
    },
  };
}
