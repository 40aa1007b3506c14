import { writeFileSync } from 'node:fs';
import { startBranchTargets } from './branch-targets.ts';
import { runScenario } from './lib.ts';
await runScenario('keep', async () => {
  const t = await startBranchTargets();
  writeFileSync('/tmp/keep.json', JSON.stringify({ db: t.platform.databaseUrl, url: t.targets.gateway.url, headers: t.targets.gateway.headers, clerk: t.clerk.headers, base: t.targets.baseline.url, pids: t.platform.platform.pids }, null, 1));
  console.log('READY');
  await new Promise((r) => setTimeout(r, 3600_000));
});
