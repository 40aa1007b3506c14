// A stand-in for a service as the launcher sees its start: it prints "started", waits for its turn
// to migrate when the launcher holds it back (MIGRATION_GATE), prints "migrating", "migrates" until
// the file STUB_HOLD_FILE exists (when set), prints "migrated" and says so over IPC, then reports
// ready and waits to be stopped.
import { existsSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { migrationTurn } from '../../libs/kit/src/runtime/migration-gate.ts';

console.log('started');
await migrationTurn();
console.log('migrating');
const hold = process.env.STUB_HOLD_FILE;
while (hold && !existsSync(hold)) await delay(20);
console.log('migrated');
process.send?.({ type: 'migrated' });
process.send?.({ type: 'ready', name: 'migrating-stub', address: '127.0.0.1:0' });
const keepAlive = setInterval(() => {}, 60_000);
const stop = () => {
  clearInterval(keepAlive);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('disconnect', stop);
