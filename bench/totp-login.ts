/**
 * Scenario totp-login: the CPU a password login costs with a second factor (TOTP), in its two
 * forms — two steps (the password step answers a challenge, POST /api/auth/login/second-factor
 * completes it with a code: the console's), and one request (the code in the login's own body:
 * an integration's) — against the same login without one (the password step alone opens the session), summed over the
 * gateway, core-svc and the PostgreSQL backends of the run's database (bcrypt, on core-svc's thread
 * pool, is in core-svc's figure: the whole process's CPU; Redis, shared, is printed apart). Target: a TOTP login costs at most 5 ms of CPU more than a
 * password login (docs/adr/0127-a-second-factor-for-password-logins.md).
 *
 * A code is accepted once (its time step is stored), so each TOTP user logs in at most twice: with
 * the code of the step now, then with the next step's (the tolerance takes one step either way).
 * The users are made through the API before measuring; their secrets are stored as a confirmed
 * enrolment would store them.
 *
 * Logins run BENCH_TOTP_CONCURRENCY (4) at a time, BENCH_TOTP_LOGINS (40) per variant and round,
 * each round starting with another variant; before each batch the scenario waits until the
 * services are idle. Each TOTP form is judged against the target on its own.
 *
 *   npm run bench -- totp-login
 *   BENCH_ROUNDS=2 BENCH_TOTP_LOGINS=20 node bench/totp-login.ts
 */
import { generate, generateSecret } from 'otplib';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import {
  BenchError,
  commandCpuMs,
  cpuSnapshot,
  cpuUsed,
  expectStatus,
  fmt,
  http,
  judge,
  login,
  median,
  printTable,
  runScenario,
  settingsFromEnv,
  startBenchPlatform,
  untilQuiet,
  type BenchPlatform,
  type CpuSnapshot,
  type CpuWatch,
} from './lib.ts';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';

/** A TOTP login may cost at most this much more CPU than a password login (µs). */
const TARGET_EXTRA_CPU_US = 5_000;
const PASSWORD = 'bench-totp-password';

await runScenario('totp-login: CPU per password login with a TOTP second factor vs without', main);

interface TotpUser {
  userCode: string;
  secret: string;
  uses: number;
}

async function main(): Promise<void> {
  const settings = settingsFromEnv();
  const logins = positive('BENCH_TOTP_LOGINS', 40);
  const concurrency = positive('BENCH_TOTP_CONCURRENCY', 4);
  const warmLogins = settings.warmup > 0 ? Math.min(logins, 10) : 0;
  console.log(`# ${settings.rounds} rounds x ${logins} logins per variant, ${concurrency} at a time; warm-up ${warmLogins} per variant`);

  const platform = await startBenchPlatform(process.env);
  const pids = platform.platform.pids;
  const admin = await login(platform);

  // plain users log in again and again; each TOTP user twice at most (a code serves once)
  const plainUsers = await Promise.all(Array.from({ length: concurrency }, (_, i) => createUser(platform, admin, `bench-pw-${i}`)));
  // two TOTP variants, each user twice
  const totpCount = Math.ceil((settings.rounds * logins + warmLogins) * 1.1) + concurrency;
  const totpUsers: TotpUser[] = [];
  for (let i = 0; i < totpCount; i += concurrency) {
    const batch = Array.from({ length: Math.min(concurrency, totpCount - i) }, (_, j) => `bench-totp-${i + j}`);
    totpUsers.push(
      ...(await Promise.all(batch.map(async (code) => ({ userCode: await createUser(platform, admin, code), secret: generateSecret(), uses: 0 })))),
    );
  }
  const db = new pg.Client({ connectionString: platform.databaseUrl });
  await db.connect();
  try {
    for (const user of totpUsers) {
      await db.query('insert into core.second_factor (user_code, secret, confirmed_at, created_at) values ($1, $2, now(), now())', [
        user.userCode,
        user.secret,
      ]);
    }
  } finally {
    await db.end();
  }
  console.log(`# ${plainUsers.length} password users, ${totpUsers.length} TOTP users`);

  let next = 0;
  /** A TOTP user and a code of it not used yet: the first use the code of the step now, the second the next step's. */
  const nextCode = async (): Promise<{ user: TotpUser; code: string }> => {
    const user = totpUsers[next++];
    if (!user) throw new BenchError('out of TOTP users');
    const epoch = Math.floor(Date.now() / 1000) + user.uses * 30;
    user.uses++;
    if (user.uses < 2) totpUsers.push(user);
    return { user, code: await generate({ secret: user.secret, epoch }) };
  };
  const totpLogin = async (): Promise<void> => {
    const { user, code } = await nextCode();
    const first = await expectStatus(
      'password step',
      http('POST', `${platform.url}/api/auth/login`, { headers: { 'x-api-key': platform.apiKey }, body: body(user.userCode) }),
    );
    const challenge = (JSON.parse(first.text) as { challenge?: string }).challenge;
    if (!challenge) throw new BenchError(`the password step of a TOTP user answered no challenge: ${first.text.slice(0, 300)}`);
    const second = await expectStatus(
      'second step',
      http('POST', `${platform.url}/api/auth/login/second-factor`, {
        headers: { 'x-api-key': platform.apiKey },
        body: { challenge, code },
      }),
    );
    if (!sessionCookieOf(second.headers.getSetCookie())?.token) throw new BenchError('the second step answered 200 without a session cookie');
  };
  const oneRequestLogin = async (): Promise<void> => {
    const { user, code } = await nextCode();
    const answer = await expectStatus(
      'login with its code',
      http('POST', `${platform.url}/api/auth/login`, { headers: { 'x-api-key': platform.apiKey }, body: { ...body(user.userCode), secondFactorCode: code } }),
    );
    if (!sessionCookieOf(answer.headers.getSetCookie())?.token) throw new BenchError('a login with its code answered 200 without a session cookie');
  };
  let plainNext = 0;
  const passwordLogin = async (): Promise<void> => {
    const userCode = plainUsers[plainNext++ % plainUsers.length] ?? '';
    const answer = await expectStatus(
      'password login',
      http('POST', `${platform.url}/api/auth/login`, { headers: { 'x-api-key': platform.apiKey }, body: body(userCode) }),
    );
    if (!sessionCookieOf(answer.headers.getSetCookie())?.token) throw new BenchError('a password login answered 200 without a session cookie');
  };

  const cpu: CpuWatch = { gateway: pids.gateway, 'core-svc': pids['core-svc'], redis: 'redis-server' };
  // the PostgreSQL server is shared (other databases' work is not this login's): the backends of this run's database alone
  const database = decodeURIComponent(new URL(platform.databaseUrl).pathname.slice(1));
  const snapshot = (): CpuSnapshot => ({ ...cpuSnapshot(cpu), postgres: backendsOf(database) });
  const processes = ['gateway', 'core-svc', 'postgres'] as const;
  /** `count` logins, `concurrency` at a time; CPU µs per login by process. */
  const batch = async (count: number, one: () => Promise<void>): Promise<Record<string, number>> => {
    await untilQuiet(Object.values(pids));
    const before = snapshot();
    let left = count;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (left-- > 0) await one();
      }),
    );
    const used = cpuUsed(before, snapshot());
    return Object.fromEntries([...processes, 'redis'].map((name) => [name, ((used[name] ?? NaN) * 1000) / count]));
  };

  type Variant = 'password' | 'totp' | 'one';
  const variants: readonly Variant[] = ['password', 'totp', 'one'];
  const run: Record<Variant, () => Promise<void>> = { password: passwordLogin, totp: totpLogin, one: oneRequestLogin };
  const names: Record<Variant, string> = { password: 'password only', totp: 'TOTP, two steps', one: 'TOTP, code in the login' };
  if (warmLogins > 0) {
    for (const variant of variants) await batch(warmLogins, run[variant]);
    console.log('# warm-up done (discarded)');
  }
  const rounds: Record<Variant, Record<string, number>>[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    // each round starts with another variant
    const order = variants.map((_, i) => variants[(i + round - 1) % variants.length] ?? 'password');
    const result = {} as Record<Variant, Record<string, number>>;
    for (const variant of order) result[variant] = await batch(logins, run[variant]);
    rounds.push(result);
    console.log(`# round ${round}: ${variants.map((v) => `${names[v]} ${fmt(total(result[v]))} µs`).join(', ')} of CPU per login`);
  }

  const medianOf = (variant: Variant, name: string) => median(rounds.map((r) => r[variant][name] ?? NaN));
  console.log(`\nCPU per login (µs, median of ${settings.rounds} rounds of ${logins} logins):`);
  printTable(
    ['login', ...processes, 'total', 'redis (shared, not in total)'],
    variants.map((variant) => [
      names[variant],
      ...processes.map((name) => fmt(medianOf(variant, name))),
      fmt(median(rounds.map((r) => total(r[variant])))),
      fmt(medianOf(variant, 'redis')),
    ]),
  );
  const verdicts: string[] = [];
  for (const variant of ['one', 'totp'] as const) {
    const extras = rounds.map((r) => total(r[variant]) - total(r.password));
    const extra = median(extras);
    if (!Number.isFinite(extra)) throw new BenchError('the CPU of a process was not measured');
    console.log(
      `${names[variant]} - password: ${fmt(extra)} µs per login, the median of the rounds' differences (rounds ${extras.map((e) => fmt(e)).join(', ')})`,
    );
    verdicts.push(
      `${names[variant]} <= password login + ${TARGET_EXTRA_CPU_US / 1000} ms CPU: ${judge(`totp login cpu (${variant === 'one' ? 'one request' : 'two steps'})`, extra <= TARGET_EXTRA_CPU_US)}`,
    );
  }
  console.log(`targets: ${verdicts.join('; ')}`);
}

/**
 * The CPU of a login in the gateway, core-svc and this database's PostgreSQL backends (a process
 * not visible makes it NaN). Redis is shared by every run on the machine and does a few
 * microseconds' work per login: printed apart, not judged.
 */
function total(perProcess: Record<string, number>): number {
  return (perProcess.gateway ?? NaN) + (perProcess['core-svc'] ?? NaN) + (perProcess.postgres ?? NaN);
}

/** CPU ms of the PostgreSQL backends serving `database` (their command line names it), by pid. */
function backendsOf(database: string): Map<number, number> {
  const own = new Map<number, number>();
  for (const [pid, ms] of commandCpuMs('postgres')) {
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(` ${database} `)) own.set(pid, ms);
    } catch {
      // ended meanwhile
    }
  }
  return own;
}

function body(userCode: string) {
  return { userCode, password: PASSWORD, languageCode: 'en' };
}

/** A user of the default tenant with PASSWORD, made through the API. */
async function createUser(platform: BenchPlatform, token: string, userCode: string): Promise<string> {
  const headers = { authorization: `Bearer ${token}` };
  await expectStatus(
    `create ${userCode}`,
    http('POST', `${platform.url}/api/user-info`, { headers, body: { crProcessId: 1, userCode, userDescription: userCode, password: PASSWORD } }),
  );
  await expectStatus(
    `user-process of ${userCode}`,
    http('POST', `${platform.url}/api/user-process`, { headers, body: { crProcessId: 1, userCode, userProcessSelects: [{ accountNo: 'DEFAULT' }] } }),
  );
  return userCode;
}

function positive(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new BenchError(`${name}=${raw}: expected a whole number >= 1`);
  return value;
}
