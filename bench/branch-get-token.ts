/**
 * Scenario branch-get-token: `GET /api/branch/{id}` through the whole chain made by one user (the
 * clerk of bench/lib/clerk.ts, not a super user) with its login's session (a JWT bearer) and with a
 * personal access token of that user holding `branch:read` alone
 * (docs/adr/0134-scoped-personal-access-tokens.md). The same record, the same role and tenant checks;
 * the only difference is the credential: a verified JWT's claims against a token's claims resolved
 * once from its row and kept, its scope intersected in the same live access statement.
 * Target: token ≥ 0.95 × session in requests/s (closed loop), judged on the median of the rounds'
 * own ratios; both measured in the same run, alternating.
 *
 *   npm run bench -- branch-get-token
 *   BENCH_DURATION=3 BENCH_ROUNDS=3 node bench/branch-get-token.ts
 *
 * Env: as bench/branch-get.ts.
 */
import { startBranchTargets } from './branch-targets.ts';
import { BenchError, expectStatus, http, measure, pairedRounds, runScenario, settingsFromEnv, type CpuWatch, type Figures, type Target } from './lib.ts';

/** The token's requests/s at least this share of the session's. */
const TARGET_RATIO = 0.95;
const NAMES = ['session', 'token'] as const;
type Name = (typeof NAMES)[number];

await runScenario("branch-get-token: GET /api/branch/{id} with a personal access token vs the same user's session", async () => {
  const settings = settingsFromEnv();
  console.log(`# ${settings.rounds} rounds x ${settings.duration} s per target, ${settings.connections} connections, ${settings.warmup} s warm-up per target`);
  const { platform, clerk, record } = await startBranchTargets();
  const session = clerk.headers?.authorization ?? '';
  const created = await expectStatus(
    'POST /api/access-token',
    http('POST', `${platform.url}/api/access-token`, {
      headers: { authorization: session },
      body: { name: 'bench', expiresAt: new Date(Date.now() + 24 * 3600 * 1000).toISOString(), crProcessId: 1, roles: ['branch:read'] },
    }),
  );
  const token = (created.json as { token?: string }).token;
  if (!token?.startsWith('svcpat_')) throw new BenchError(`no token in ${created.text.slice(0, 200)}`);
  const targets: Record<Name, Target> = { session: clerk, token: { url: clerk.url, headers: { authorization: `Bearer ${token}` } } };
  const viaToken = await expectStatus('GET (token)', http('GET', targets.token.url, { headers: targets.token.headers }));
  if (viaToken.text !== record) throw new BenchError(`the token is answered another record:\n  token: ${viaToken.text}\n  session: ${record}`);
  console.log('# the session and the token answer 200 with the same record');

  const pids = platform.platform.pids;
  const cpu: CpuWatch = { gateway: pids.gateway, 'bpm-svc': pids['bpm-svc'], postgres: 'postgres' };
  const run = (name: Name, duration: number): Promise<Figures> => measure(targets[name], { duration, connections: settings.connections, cpu, label: name });
  await pairedRounds({ names: NAMES, settings, run, target: TARGET_RATIO, label: 'branch-get token/session req/s' });
});
