/**
 * The outbox's measurement switch (docs/adr/0071-outbox-disabled-is-a-measurement.md): with OUTBOX_DISABLED=true a
 * service writes no event for a change; without it, the same create writes one. A core-svc and a
 * gateway of the test's own carry the switch (bpm and dms stubbed), on the suite's database.
 */
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { sql } from './helpers/db.ts';
import { without } from './helpers/env-without.ts';
import { adminSession, freshTenant, unique } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { suiteLog } from './helpers/suite-log.ts';

function eventsOf(accountNo: string): Promise<{ type: string }[]> {
  return sql<{ type: string }>(`select type from core.core_outbox where entity = 'account' and entity_key = $1`, [accountNo]);
}

test('OUTBOX_DISABLED=true: a create writes no event; the suite platform, without the switch, writes one', async (t) => {
  const { token } = await adminSession();
  const switched = await startPlatform({
    env: { ...without(platform.env, 'CORE_GRPC_ADDR'), OUTBOX_DISABLED: 'true', GATEWAY_PORT: '0' },
    ports: 'free',
    entries: { 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
  try {
    const create = (baseUrl: string) =>
      api('POST', '/api/account', { token, baseUrl, body: { accountNo: unique('ACC-'), accountName: unique('Account '), crProcessId: freshTenant() } });
    const off = await create(switched.url);
    t.is(off.status, 200, off.text);
    t.deepEqual(await eventsOf(off.body.accountNo), []);
    const on = await create(platform.url);
    t.is(on.status, 200, on.text);
    t.deepEqual(await eventsOf(on.body.accountNo), [{ type: 'account.created' }]);
  } finally {
    await switched.stop();
  }
});
