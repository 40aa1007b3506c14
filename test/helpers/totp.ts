/** A user's authenticator, as the tests play it: TOTP codes of a secret (otplib, as core-svc checks them). */
import { generate } from 'otplib';
import { api } from './platform.ts';
import { sessionOf, type Session } from './factories.ts';

/** The code of `secret` for the step `steps` away from now (-1, 0, +1 are within the tolerance). */
export function codeOf(secret: string, steps = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * 30 });
}

/** A code of `secret` that is none of its codes now or a step away. */
export async function wrongCodeOf(secret: string): Promise<string> {
  const taken = new Set(await Promise.all([-1, 0, 1].map((steps) => codeOf(secret, steps))));
  for (let n = 0; ; n++) {
    const candidate = String(n).padStart(6, '0');
    if (!taken.has(candidate)) return candidate;
  }
}

/** The password step (POST /api/auth/login). */
export function passwordStep(userCode: string, password: string) {
  return api('POST', '/api/auth/login', { apiKey: true, body: { userCode, password, languageCode: 'en' } });
}

/** The second step (POST /api/auth/login/second-factor). */
export function secondStep(body: Record<string, unknown>) {
  return api('POST', '/api/auth/login/second-factor', { apiKey: true, body });
}

/** Enrols the signed-in user: its secret, recovery codes, and the code that confirmed it (used). */
export async function enrol(session: Session): Promise<{ secret: string; recoveryCodes: string[]; code: string }> {
  const started = await api('POST', '/api/auth/second-factor/enrolment', { token: session.token });
  if (started.status !== 200) throw new Error(`enrolment: ${started.status} ${started.text}`);
  const secret: string = started.body.secret;
  const code = await codeOf(secret);
  const confirmed = await api('POST', '/api/auth/second-factor/enrolment/confirm', { token: session.token, body: { code } });
  if (confirmed.status !== 200) throw new Error(`confirm: ${confirmed.status} ${confirmed.text}`);
  return { secret, recoveryCodes: confirmed.body.recoveryCodes, code };
}

/** Both steps with a code `steps` away from now; the session. */
export async function loginWithCode(userCode: string, password: string, secret: string, steps = 0): Promise<Session> {
  const first = await passwordStep(userCode, password);
  if (first.status !== 200 || !first.body.challenge) throw new Error(`password step: ${first.status} ${first.text}`);
  const second = await secondStep({ challenge: first.body.challenge, code: await codeOf(secret, steps) });
  if (second.status !== 200) throw new Error(`second step: ${second.status} ${second.text}`);
  return sessionOf(second);
}
