/**
 * A LISTEN on the outbox channel over a dedicated connection (docs/decisions.md "Events: a
 * transactional outbox"): `onNotify` runs for each commit that wrote events (payload: the schema).
 * A lost connection is opened again after a second; whoever listens polls as well, so a
 * notification missed meanwhile only delays.
 */
import pg from 'pg';
import type { Logger } from '../log/logger.ts';
import { OUTBOX_CHANNEL } from './outbox-entity.ts';

const RECONNECT_MS = 1_000;

/**
 * @example
 * const listener = listenToOutbox(databaseUrlOf(), 'core-svc webhooks', log, (schema) => wake());
 * await listener.close();
 */
export function listenToOutbox(url: string, applicationName: string, log: Logger, onNotify: (payload: string) => void): { close(): Promise<void> } {
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;
  const connect = () => {
    if (closed) return;
    const next = new pg.Client({ connectionString: url, application_name: applicationName, connectionTimeoutMillis: 10_000 });
    client = next;
    const again = (error?: Error) => {
      if (client !== next) return;
      client = undefined;
      next.end().catch(() => undefined);
      if (closed) return;
      if (error) log.warn({ err: error }, 'outbox listener lost its connection');
      retry = setTimeout(connect, RECONNECT_MS);
      retry.unref();
    };
    next.on('notification', (message) => onNotify(message.payload ?? ''));
    next.on('error', again);
    next.on('end', () => again());
    next
      .connect()
      .then(() => next.query(`listen ${OUTBOX_CHANNEL}`))
      .catch(again);
  };
  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const current = client;
      client = undefined;
      await current?.end().catch(() => undefined);
    },
  };
}
