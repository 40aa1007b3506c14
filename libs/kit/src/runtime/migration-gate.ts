/**
 * The variable a launcher sets to hold back a service's migrations until it says so: `npm start`
 * and the test run start the services together, and a service whose schema refers to another's
 * (bpm's keys name core's country and city) must migrate after it (scripts/lib/processes.ts).
 */
export const MIGRATION_GATE = 'MIGRATION_GATE';

/**
 * Resolves once this process may run its migrations: at once, unless its launcher set
 * MIGRATION_GATE=ipc; then it asks the launcher for its turn (`{ type: 'migration-turn' }` over
 * IPC, sent once it listens, so no answer is lost) and resolves on the answer `{ type: 'migrate' }`.
 *
 * @example
 * await migrationTurn();
 * await migrateUp(orm);
 * process.send?.({ type: 'migrated' });
 */
export function migrationTurn(env: Record<string, string | undefined> = process.env): Promise<void> {
  if (env[MIGRATION_GATE] !== 'ipc' || !process.send) return Promise.resolve();
  return new Promise((resolve) => {
    const onMessage = (message: unknown): void => {
      if (typeof message !== 'object' || message === null || (message as { type?: unknown }).type !== 'migrate') return;
      process.removeListener('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    process.send?.({ type: 'migration-turn' });
  });
}
