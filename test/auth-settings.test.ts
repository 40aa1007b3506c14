/**
 * Login under settings other than the suite's, each on a core-svc and gateway of the test's own
 * (bpm and dms stubbed): a reCAPTCHA verifier (docs/interface.md#auth) and a
 * configured token lifetime (JWT_TTL_SECONDS).
 */
import { createServer, type Server } from 'node:http';
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { without } from './helpers/env-without.ts';
import { createAccount, createUser, sessionOf } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { suiteLog } from './helpers/suite-log.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { claimsOf } from './helpers/tokens.ts';

test('with a reCAPTCHA secret, login verifies captchaToken at the verify URL and score threshold (400 SVC-SYS-1005)', async (t) => {
  const seen: string[] = [];
  const verifier: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form.get('secret') ?? '');
      const token = form.get('response');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(token === 'human' ? { success: true, score: 0.9 } : token === 'bot' ? { success: true, score: 0.1 } : { success: false }));
    });
  });
  await new Promise<void>((resolve) => verifier.listen(0, '127.0.0.1', resolve));
  const address = verifier.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const captchaPlatform = await startPlatform({
    // core-svc's port picked by the start, again if it is taken before core-svc binds it
    env: {
      ...without(platform.env, 'CORE_GRPC_ADDR'),
      GATEWAY_PORT: '0',
      RECAPTCHA_SECRET: 'captcha-test-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/verify`,
      RECAPTCHA_MIN_SCORE: '0.5',
    },
    ports: 'free',
    entries: { 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
  try {
    const attempt = (captchaToken?: string) =>
      api('POST', '/api/auth/login', {
        baseUrl: captchaPlatform.url,
        apiKey: true,
        body: { userCode: platform.adminUser, password: platform.adminPassword, languageCode: 'en', ...(captchaToken ? { captchaToken } : {}) },
      });
    for (const token of [undefined, 'bot', 'forged']) {
      const res = await attempt(token);
      t.is(res.status, 400, String(token));
      t.is(res.body.error_code, 'SVC-SYS-1005');
    }
    t.is((await attempt('human')).status, 200);
    t.true(seen.every((secret) => secret === 'captcha-test-secret'));
    await new Promise<void>((resolve) => verifier.close(() => resolve()));
    const down = await attempt('human');
    t.is(down.status, 503);
    t.is(down.body.error_code, 'SVC-SYS-5002');
  } finally {
    verifier.close();
    await captchaPlatform.stop();
  }
});

test('JWT_TTL_SECONDS sets the token lifetime: exp - iat, the cookie Max-Age, the expiresAt of the login and of its session', async (t) => {
  // a core-svc and a gateway of the test's own with a two-minute lifetime (bpm and dms stubbed)
  const own = await startPlatform({
    env: { ...without(platform.env, 'CORE_GRPC_ADDR'), JWT_TTL_SECONDS: '120', GATEWAY_PORT: '0' },
    ports: 'free',
    entries: { 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
  try {
    const account = await createAccount();
    const { user, password } = await createUser([account.accountNo]);
    const res = await api('POST', '/api/auth/login', { apiKey: true, baseUrl: own.url, body: { userCode: user.userCode, password, languageCode: 'en' } });
    t.is(res.status, 200, res.text);
    const { cookie, token } = sessionOf(res);
    t.true(cookie.toLowerCase().split(/;\s*/).includes('max-age=120'), cookie);
    const claims = claimsOf(token) as { exp: number; iat: number; sid: string };
    t.is(claims.exp - claims.iat, 120);
    const expiresIn = (Date.parse(res.body.expiresAt) - Date.now()) / 1000;
    t.true(expiresIn > 110 && expiresIn <= 120, String(expiresIn));
    const session = await api('GET', `/api/session/active`, { apiKey: true, baseUrl: own.url });
    const mine = (session.body as { sessionId: string; loginAt: string; expiresAt: string }[]).find((s) => s.sessionId === claims.sid);
    t.truthy(mine);
    const lifetime = Date.parse(mine!.expiresAt) - Date.parse(mine!.loginAt);
    t.true(Math.abs(lifetime - 120_000) < 2_000, `${lifetime} ms`);
  } finally {
    await own.stop();
  }
});
