/**
 * A personal access token is rate-limited per token (docs/adr/0134-scoped-personal-access-tokens.md):
 * its requests fill a bucket of its public id at the JWT tier's rate, wherever they come from, as well
 * as their client address's (docs/interface.md#limits). A gateway with a JWT tier of 10 a minute
 * (a token back every 6 seconds) and TRUST_PROXY=1, so that each request names its client address.
 */
import test from 'ava';
import type { Platform } from '../scripts/lib/processes.ts';
import { accessTokenFor } from './helpers/access-tokens.ts';
import { createAccount, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { startGateway, uniquePrefix, untilRedisUp } from './helpers/redis.ts';

const JWT_LIMIT = 10;
let gateway: Platform;

test.before(async () => {
  gateway = await startGateway(platform.env, { REDIS_KEY_PREFIX: uniquePrefix('pat-rl'), TRUST_PROXY: '1', RATE_LIMIT_JWT: String(JWT_LIMIT) });
  await untilRedisUp(gateway);
});

test.after.always(async () => {
  await gateway?.stop();
});

const me = (token: string, client: string) => api('GET', '/api/auth/me', { baseUrl: gateway.url, token, headers: { 'x-forwarded-for': client } });

test('one token sent from ten addresses is refused past the JWT tier of 10 a minute (429), while another token and a login from those addresses are served', async (t) => {
  const account = await createAccount();
  const user = await userWithRoles(account, ['branch:read']);
  const [one, other] = await Promise.all([
    accessTokenFor(user.token, account.crProcessId, ['branch:read']),
    accessTokenFor(user.token, account.crProcessId, ['branch:read']),
  ]);
  // every request from an address of its own: no address's bucket comes near its limit
  const answers = [];
  for (let i = 0; i < JWT_LIMIT + 3; i++) answers.push(await me(one.token, `198.51.100.${100 + i}`));
  const statuses = answers.map((res) => res.status);
  t.deepEqual(statuses.slice(0, JWT_LIMIT), Array(JWT_LIMIT).fill(200), 'the first ten pass');
  t.deepEqual(statuses.slice(JWT_LIMIT), [429, 429, 429], 'the token is limited wherever it is used from');
  const refused = answers[JWT_LIMIT]!;
  t.is(refused.body.status, 429);
  t.regex(refused.body.message, /access token/);
  t.is(refused.headers.get('ratelimit-limit'), String(JWT_LIMIT));
  t.truthy(refused.headers.get('retry-after'));
  t.is(answers[2]!.headers.get('ratelimit-remaining'), String(JWT_LIMIT - 3), "the headers tell of the token's bucket, the one running out");

  t.is((await me(other.token, '198.51.100.100')).status, 200, 'another token of the same user has a bucket of its own');
  t.is((await me(user.token, '198.51.100.101')).status, 200, "the user's login is limited by address alone");
});

test('a token is counted under its client address too: a forged id of each request cannot lift the address limit', async (t) => {
  const client = '203.0.113.77';
  const statuses = [];
  for (let i = 0; i < JWT_LIMIT + 2; i++) {
    const forged = `svcpat_${i.toString(16).padStart(32, '0')}_${'A'.repeat(43)}`;
    statuses.push((await me(forged, client)).status);
  }
  t.deepEqual(statuses.slice(0, JWT_LIMIT), Array(JWT_LIMIT).fill(401));
  t.deepEqual(statuses.slice(JWT_LIMIT), [429, 429]);
});
