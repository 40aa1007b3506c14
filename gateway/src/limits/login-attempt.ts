import type { Request, Response } from 'express';
import type { Language } from '@platform/kit/i18n/messages.ts';
import { sendTooManyRequests } from './too-many-requests.ts';

/** Why the guard refused an attempt, and for how long. */
export interface LoginRefusal {
  /** Milliseconds until a login of this user from this address is accepted again. */
  retryAfterMs: number;
  message: Record<Language, string>;
}

/** How an admitted login ended: a wrong user code or password (401 SVC-SYS-1002), a success, or anything else. */
export type LoginOutcome = 'wrong-password' | 'success' | 'other';

/**
 * One login attempt the guard admitted (or refused: then `refusal` is set and there is nothing to
 * settle). `count` is the guard's settlement of this attempt (LoginGuard.admit); undefined when
 * there is nothing to settle.
 */
export class LoginAttempt {
  #count: ((outcome: LoginOutcome) => Promise<void>) | undefined;
  readonly refusal: LoginRefusal | undefined;

  constructor(count: ((outcome: LoginOutcome) => Promise<void>) | undefined, refusal?: LoginRefusal) {
    this.#count = count;
    this.refusal = refusal;
  }

  /**
   * Once: counts a wrong password, or starts the user's count again after a success; either way the
   * attempt is no longer pending. A success deletes the failures counted when it was admitted (and any
   * since); when there were none, there is nothing to delete, and a wrong password counted meanwhile stays.
   */
  async settle(outcome: LoginOutcome): Promise<void> {
    const count = this.#count;
    this.#count = undefined;
    await count?.(outcome);
  }
}

/** 429 with the rate-limit body for a login the guard refused. */
export function sendLoginRefusal(req: Request, res: Response, refusal: LoginRefusal): void {
  sendTooManyRequests(req, res, refusal.retryAfterMs, refusal.message);
}
