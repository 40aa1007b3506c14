import { createRequire } from 'node:module';
import pg from 'pg';
import type { Logger } from '@platform/kit/log/logger.ts';

/**
 * Several statements in ONE extended-protocol sequence on a pg client: Parse (when needed), Bind and
 * Execute of each, then a single Sync. Between two Syncs PostgreSQL runs the messages in one
 * implicit transaction: `set_config(..., true)` of the first applies to the next and ends with the
 * sequence, an error in any skips to the Sync and rolls back, and a pooler in transaction mode sees
 * one transaction (docs/adr/0152-the-scoped-read-under-one-sync.md).
 *
 * node-postgres sends one Sync per query; a *Submittable* (`client.query(obj)`, what pg-cursor
 * does) may write what it likes, but the contract between it and the client is not documented
 * (brianc/node-postgres#1389), nor a batch under one Sync (brianc/node-postgres#2257). This module
 * is the one place that reaches past pg's documented API: the Connection's message writers and its
 * record of parsed statements (`parsedStatements`, `submittedNamedStatements`), its `parseComplete`
 * event, `pg.Result` and `pg.utils.prepareValue`. It was written for pg {@link WRITTEN_FOR} and is
 * used on that version only; on another, {@link SINGLE_SYNC} is false and the callers keep their
 * pipelined `begin` … `commit` (db/prepared.ts, db/orm.ts).
 */
const WRITTEN_FOR = '8.23.0';

const installed = (createRequire(import.meta.url)('pg/package.json') as { version: string }).version;

/** Whether the installed pg is the one this module was written for. */
export const SINGLE_SYNC = installed === WRITTEN_FOR;

let noted = false;
/** Says once, when the installed pg is another, that the reads go the slower way. */
export function noteSingleSyncFallback(log: Logger | undefined): void {
  if (SINGLE_SYNC || noted) return;
  noted = true;
  log?.warn(
    { pg: installed, writtenFor: WRITTEN_FOR },
    'db/pg-single-sync.ts was written for another pg: the scoped prepared reads go as a pipelined begin … commit',
  );
}

/** One statement of a sequence: named (parsed once per connection) or unnamed (parsed each time). */
export interface Step {
  name?: string;
  text: string;
  values: readonly unknown[];
}

/** The parts of pg's Connection this module uses (pg/lib/connection.js). */
interface Connection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { name: string; text: string; types: unknown[] }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  sendCopyFail(reason: string): void;
  on(event: 'parseComplete', listener: () => void): void;
  removeListener(event: 'parseComplete', listener: () => void): void;
}

/** pg's Result (pg/lib/result.js): parses a row with the client's type parsers, as a pg Query does. */
interface Result {
  rows: object[];
  addFields(fields: unknown[]): void;
  parseRow(fields: unknown[]): object;
}
type ResultConstructor = new (rowMode: undefined, types: { getTypeParser: pg.ClientBase['getTypeParser'] }) => Result;
const { Result: PgResult, utils } = pg as unknown as { Result: ResultConstructor; utils: { prepareValue(value: unknown): unknown } };

/**
 * Runs `steps` on `client` under one Sync and resolves with the rows of the last (those of the
 * others are dropped), parsed as pg parses a query's. Rejects with the first error, PostgreSQL's
 * (a DatabaseError, with its SQLSTATE) or the socket's, as `client.query` would.
 */
export function querySingleSync<T extends object>(client: pg.PoolClient, steps: readonly Step[]): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const sequence = new Sequence(steps, new PgResult(undefined, client), (error, rows) => (error ? reject(error) : resolve(rows as T[])));
    client.query(sequence as unknown as pg.Submittable);
  });
}

/** The Submittable: what pg's client calls as the replies come (pg/lib/client.js, the `handle…` methods). */
class Sequence {
  /** Called once; pg's client may wrap it (a `query_timeout`). */
  callback: (error: Error | null, rows?: object[]) => void;
  private readonly steps: readonly Step[];
  private readonly result: Result;
  /** CommandCompletes seen: the index of the step whose replies come now. */
  private completed = 0;
  /** The Parses sent and not yet answered, in order: their replies come in the same order. */
  private readonly parsing: Step[] = [];
  private connection: Connection | undefined;
  private rowError: Error | undefined;

  constructor(steps: readonly Step[], result: Result, callback: (error: Error | null, rows?: object[]) => void) {
    this.steps = steps;
    this.result = result;
    this.callback = callback;
  }

  submit(connection: Connection): Error | null {
    for (const { name, text } of this.steps) {
      const known = name ? (connection.parsedStatements[name] ?? connection.submittedNamedStatements[name]) : undefined;
      if (known !== undefined && known !== text) return new Error(`Prepared statements must be unique - '${name}' was used for a different statement`);
    }
    // the values mapped first: nothing throws halfway through the writes
    const values = this.steps.map((step) => step.values.map((value) => utils.prepareValue(value)));
    this.connection = connection;
    connection.stream.cork?.();
    try {
      this.steps.forEach((step, i) => {
        const name = step.name ?? '';
        if (!name || (connection.parsedStatements[name] ?? connection.submittedNamedStatements[name]) === undefined) {
          connection.parse({ name, text: step.text, types: [] });
          if (name) connection.submittedNamedStatements[name] = step.text;
          this.parsing.push(step);
        }
        connection.bind({ portal: '', statement: name, values: values[i]! });
        // only the last step's rows are kept: only its portal is described (its RowDescription)
        if (i === this.steps.length - 1) connection.describe({ type: 'P', name: '' });
        connection.execute({ portal: '' });
      });
      connection.sync();
    } finally {
      connection.stream.uncork?.();
    }
    if (this.parsing.length > 0) connection.on('parseComplete', this.parsed);
    return null;
  }

  /** A ParseComplete: while this sequence holds the client, the replies on its connection are its own. */
  private readonly parsed = (): void => {
    const step = this.parsing.shift();
    if (step?.name && this.connection) {
      this.connection.parsedStatements[step.name] = step.text;
      delete this.connection.submittedNamedStatements[step.name];
    }
    if (this.parsing.length === 0) this.connection?.removeListener('parseComplete', this.parsed);
  };

  private get last(): boolean {
    return this.completed === this.steps.length - 1;
  }

  handleRowDescription(message: { fields: unknown[] }): void {
    this.result.addFields(message.fields);
  }

  handleDataRow(message: { fields: unknown[] }): void {
    if (!this.last || this.rowError) return;
    try {
      this.result.rows.push(this.result.parseRow(message.fields));
    } catch (error) {
      this.rowError = error as Error;
    }
  }

  handleCommandComplete(): void {
    this.completed++;
  }

  handleEmptyQuery(): void {
    this.completed++;
  }

  handlePortalSuspended(): void {}

  handleCopyInResponse(connection: Connection): void {
    connection.sendCopyFail('No source stream defined');
  }

  handleCopyData(): void {}

  handleError(error: Error): void {
    // PostgreSQL skipped the rest: the Parses not answered were not made
    this.connection?.removeListener('parseComplete', this.parsed);
    for (const step of this.parsing.splice(0)) if (step.name) delete this.connection?.submittedNamedStatements[step.name];
    this.callback(this.rowError ?? error);
  }

  handleReadyForQuery(): void {
    if (this.rowError) this.callback(this.rowError);
    else this.callback(null, this.result.rows);
  }
}
