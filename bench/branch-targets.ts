/**
 * The set-up branch-get and steady-load share: the platform with its whole chain on, one branch of
 * one partner with every field set, a clerk (bench/lib/clerk.ts), the database analysed, the bare
 * baseline and the one-hop reference serving the same row, and the check that all of them answer
 * 200 with the same record byte for byte.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jwt from 'jsonwebtoken';
import type { UserClaims } from '../libs/kit/src/auth/jwt.ts';
import { withClient } from '../scripts/lib/pg-client.ts';
import type { Platform } from '../scripts/lib/processes.ts';
import { clerkToken } from './lib/clerk.ts';
import { benchPartner } from './lib/partner.ts';
import {
  BENCH_RATE_LIMIT,
  BenchError,
  expectStatus,
  http,
  login,
  startBenchPlatform,
  startChildServer,
  startPlatformBeside,
  type BenchPlatform,
  type ChildServer,
  type Target,
} from './lib.ts';

const BENCH_DIR = dirname(fileURLToPath(import.meta.url));

/**
 * The gateway, the bare baseline, one grpc-js hop alone, and that hop with the checks the platform
 * may not skip (the checked hop: the gateway's limiter, the service's live access statement;
 * bench/grpc-hop-server.ts). The last two are references.
 */
export const BRANCH_TARGET_NAMES = ['gateway', 'baseline', 'grpc-hop', 'checked-hop'] as const;
export type BranchTargetName = (typeof BRANCH_TARGET_NAMES)[number];

export interface BranchTargets {
  platform: BenchPlatform;
  targets: Record<BranchTargetName, Target>;
  baseline: ChildServer;
  hop: ChildServer;
  hopBack: ChildServer;
  checkedHop: ChildServer;
  checkedHopBack: ChildServer;
  /** The record all three answer. */
  record: string;
  /** The gateway's request as a clerk (bench/lib/clerk.ts) makes it: the same record, through the role and tenant checks a super user skips. */
  clerk: Target;
  /** How many roles the clerk holds. */
  clerkRoles: number;
}

export async function startBranchTargets(): Promise<BranchTargets> {
  const platform = await startBenchPlatform();
  const token = await login(platform);
  const auth = { authorization: `Bearer ${token}` };
  const suffix = randomBytes(4).toString('hex').toUpperCase();
  const partnerId = await benchPartner(platform, token, 1);
  const created = await expectStatus(
    'POST /api/branch',
    http('POST', `${platform.url}/api/branch`, {
      headers: auth,
      body: {
        crProcessId: 1,
        businessPartnerId: partnerId,
        branchName: `Bench branch ${suffix}`,
        branchCode: `BR-${suffix}`,
        address: 'Büyükdere Cad. No:1, 34394 Şişli, İstanbul',
        phone: '+90 212 555 0101',
        email: 'bench@example.com',
      },
    }),
  );
  const branchId = idOf(created.json, 'branch');
  const clerk = await clerkToken(platform, token);
  await analyze(platform.databaseUrl);

  const baseline = await startChildServer(
    'baseline',
    join(BENCH_DIR, 'baseline-server.ts'),
    {
      DATABASE_URL: platform.databaseUrl,
      BASELINE_POOL_MAX: '10', // the services' MikroORM pool size (libs/service-kit/src/db/orm.ts)
    },
    { execArgv: platform.execArgv },
  );
  // One grpc-js hop alone: an HTTP front that asks a gRPC back for the same row and JSON.
  const hopBack = await startChildServer(
    'grpc-hop back',
    join(BENCH_DIR, 'grpc-hop-server.ts'),
    { HOP_ROLE: 'back', DATABASE_URL: platform.databaseUrl, BASELINE_POOL_MAX: '10' },
    { execArgv: platform.execArgv },
  );
  const hop = await startChildServer(
    'grpc-hop',
    join(BENCH_DIR, 'grpc-hop-server.ts'),
    { HOP_ROLE: 'front', HOP_BACKEND: hopBack.url },
    { execArgv: platform.execArgv },
  );
  // The same hop with the two checks that stay exact on every request: the admin's live access, the limiter.
  const checkedHopBack = await startChildServer(
    'checked-hop back',
    join(BENCH_DIR, 'grpc-hop-server.ts'),
    { HOP_ROLE: 'back', DATABASE_URL: platform.databaseUrl, BASELINE_POOL_MAX: '10', HOP_ACCESS: JSON.stringify(accessClaimsOf(token)) },
    { execArgv: platform.execArgv },
  );
  const checkedHop = await startChildServer(
    'checked-hop',
    join(BENCH_DIR, 'grpc-hop-server.ts'),
    { HOP_ROLE: 'front', HOP_BACKEND: checkedHopBack.url, HOP_LIMITER: platform.redis.url, HOP_LIMITER_PREFIX: platform.redis.keyPrefix },
    { execArgv: platform.execArgv },
  );

  const targets: Record<BranchTargetName, Target> = {
    gateway: { url: `${platform.url}/api/branch/${branchId}`, headers: auth },
    baseline: { url: `${baseline.url}/branch/${branchId}` },
    'grpc-hop': { url: `${hop.url}/branch/${branchId}` },
    'checked-hop': { url: `${checkedHop.url}/branch/${branchId}` },
  };

  // All answer 200 with the same record, byte for byte, before anything is measured.
  const answers = await Promise.all(
    BRANCH_TARGET_NAMES.map((name) => expectStatus(`GET ${targets[name].url} (${name})`, http('GET', targets[name].url, { headers: targets[name].headers }))),
  );
  const [viaGateway, viaBaseline, viaHop, viaCheckedHop] = answers.map((answer) => answer.text);
  if (viaGateway !== viaBaseline || viaHop !== viaBaseline || viaCheckedHop !== viaBaseline) {
    throw new BenchError(
      `the targets answer different records:\n  gateway:  ${viaGateway}\n  baseline: ${viaBaseline}\n  grpc-hop: ${viaHop}\n  checked-hop: ${viaCheckedHop}`,
    );
  }
  if (answers[3]?.headers.get('ratelimit-limit') !== BENCH_RATE_LIMIT) throw new BenchError('the checked hop answered without its limiter');
  if (idOf(answers[0]?.json, 'branch read back') !== branchId) throw new BenchError(`GET answered another record: ${viaGateway}`);
  const clerkTarget: Target = { url: targets.gateway.url, headers: { authorization: `Bearer ${clerk.token}` } };
  const viaClerk = (await expectStatus(`GET ${clerkTarget.url} (clerk)`, http('GET', clerkTarget.url, { headers: clerkTarget.headers }))).text;
  if (viaClerk !== viaBaseline) throw new BenchError(`the clerk is answered another record:\n  clerk:    ${viaClerk}\n  baseline: ${viaBaseline}`);
  console.log(`# all answer 200 with the same record (${viaGateway?.length} bytes), the clerk (${clerk.roles} roles) too: ${viaGateway}`);
  return { platform, targets, baseline, hop, hopBack, checkedHop, checkedHopBack, record: viaGateway ?? '', clerk: clerkTarget, clerkRoles: clerk.roles };
}

/**
 * ANALYZE of the whole database, as autovacuum would do within a minute or so of the set-up's rows:
 * the live access's joins are then planned on statistics (a plan made on core's empty tables made
 * the clerk's calls many times dearer), as in a platform that has been running.
 */
async function analyze(databaseUrl: string): Promise<void> {
  await withClient(databaseUrl, (client) => client.query('analyze'));
}

/** What the live access reads of a token (its user, session, tokenVersion and tenant), from its payload unverified. */
function accessClaimsOf(token: string): Pick<UserClaims, 'userCode' | 'sid' | 'tokenVersion' | 'crProcessId'> {
  const claims = jwt.decode(token, { json: true });
  if (!claims) throw new BenchError('the login answered a token that is not a JWT');
  return { userCode: claims.userCode, sid: claims.sid, tokenVersion: claims.tokenVersion, crProcessId: claims.crProcessId };
}

function idOf(json: unknown, what: string): number {
  const id = (json as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number') throw new BenchError(`${what}: no numeric id in ${JSON.stringify(json)}`);
  return id;
}

/**
 * A second platform beside the targets' (a variant against its baseline: bench/lib/paired-rounds.ts),
 * on the same database with the same secrets and `env` changed, its ports its own, its log
 * `<name>.log` beside the first's; stopped when the scenario ends. Answers it and `target` asked of
 * it instead, once it answers 200 with the same record.
 *
 * @example
 * const off = await platformBeside(branch, 'rls-off', { DATABASE_ROW_SECURITY: 'off' }, branch.clerk);
 */
export async function platformBeside(
  branch: BranchTargets,
  name: string,
  env: Record<string, string>,
  target: Target,
): Promise<{ platform: Platform; target: Target }> {
  const platform = await startPlatformBeside(branch.platform, name, env);
  const beside: Target = { url: `${platform.url}${new URL(target.url).pathname}`, headers: target.headers };
  const answer = await expectStatus(`GET (${name})`, http('GET', beside.url, { headers: beside.headers }));
  if (answer.text !== branch.record) throw new BenchError(`the ${name} platform answers another record:\n  ${name}: ${answer.text}\n  first: ${branch.record}`);
  return { platform, target: beside };
}
