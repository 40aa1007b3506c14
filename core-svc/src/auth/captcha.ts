import type { CoreConfig } from '../config.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';

const TIMEOUT_MS = 5_000;

/**
 * reCAPTCHA v3: when a secret is configured, login's captchaToken must verify at the configured URL
 * with at least the configured score, else 400 SVC-SYS-1005. An unreachable verifier is 503
 * SVC-SYS-5002 (the login is neither accepted nor blamed on the client).
 */
export async function verifyCaptcha(captcha: NonNullable<CoreConfig['captcha']>, token: string | undefined, ip: string): Promise<void> {
  if (!token) throw new DomainError('SVC-SYS-1005', 'captcha.rejected');
  let answer: { success?: unknown; score?: unknown };
  try {
    const response = await fetch(captcha.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: captcha.secret, response: token, ...(ip ? { remoteip: ip } : {}) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`verifier answered ${response.status}`);
    answer = (await response.json()) as typeof answer;
  } catch {
    throw new DomainError('SVC-SYS-5002', 'service.unavailable');
  }
  const score = typeof answer.score === 'number' ? answer.score : 0;
  if (answer.success !== true || score < captcha.minScore) throw new DomainError('SVC-SYS-1005', 'captcha.rejected');
}
