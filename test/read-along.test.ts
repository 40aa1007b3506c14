/**
 * docs/adr/0039-a-get-reads-its-row-with-the-live.md: a user's get by key reads the row in
 * the same prepared statement as the caller's live access, one round trip instead of two. bpm-svc
 * counts the named statements it sends (`db_prepared_statements_total`,
 * docs/adr/0045-metrics-prom-client-one-registry.md), so a run of gets shows which statements served them: the combined one once per get
 * (the live access in full with the row, or, while the access the service keeps may serve, the
 * access stamp with the row: docs/adr/0062-a-kept-live-access-and-its-access.md), and
 * the row's own read (`read-bpm-branch-tenant` for a user of the tenant, `-any` for a super
 * user) not once per get. Other tests run beside this one; no other path reads a branch by key
 * outside a transaction, so their share of these counts stays far below a hundred gets.
 */
import test from 'ava';
import { adminSession, createAccount, createBranch, createPartner, userWithRoles } from './helpers/factories.ts';
import { scrape, type Metrics } from './helpers/metrics.ts';
import { api, platform } from './helpers/platform.ts';

const GETS = 100;

function bpmMetrics(): Promise<Metrics> {
  const address = platform.metrics['bpm-svc'];
  if (!address) throw new Error('bpm-svc reported no metrics address');
  return scrape(`http://${address}`);
}

const sent = (metrics: Metrics, statement: string) => metrics.sum('db_prepared_statements_total', { statement });

const callers = [
  {
    who: 'a user of the tenant holding branch:read',
    own: 'read-bpm-branch-tenant',
    token: async (account: Awaited<ReturnType<typeof createAccount>>) => (await userWithRoles(account, ['branch:read'])).token,
  },
  { who: 'the super user', own: 'read-bpm-branch-any', token: async () => (await adminSession()).token },
];

for (const { who, own, token: tokenFor } of callers) {
  test(`a get of a branch by ${who} reads the row in the live access's statement, with no read of its own`, async (t) => {
    const account = await createAccount();
    const partner = await createPartner(account.crProcessId);
    const branch = await createBranch(account.crProcessId, partner.id);
    const token = await tokenFor(account);
    const before = await bpmMetrics();
    const statuses = new Set<number>();
    for (let i = 0; i < GETS; i++) statuses.add((await api('GET', `/api/branch/${branch.id}`, { token })).status);
    const after = await bpmMetrics();
    t.deepEqual([...statuses], [200]);
    const combined = ['live-access+read-bpm-branch', 'live-access-stamp+read-bpm-branch'].reduce(
      (sum, name) => sum + sent(after, name) - sent(before, name),
      0,
    );
    const separate = sent(after, own) - sent(before, own);
    t.true(combined >= GETS, `the access and the row in one statement: ${combined} for ${GETS} gets`);
    t.true(separate < GETS / 2, `the row read apart: ${separate} for ${GETS} gets`);
  });
}
