import type { Request, Response } from 'express';
import type { Language } from '@platform/kit/i18n/messages.ts';
import { languageOf } from '../http/context.ts';

/**
 * `retryAfter` of the 429 body. docs/interface.md#rate-limit-body fixes it at 60 seconds, so it
 * stays 60; the Retry-After header carries the real wait.
 */
export const RETRY_AFTER_BODY_SECONDS = 60;

/** 429 with the rate-limit body of docs/interface.md#rate-limit-body and Retry-After in whole seconds. */
export function sendTooManyRequests(req: Request, res: Response, retryAfterMs: number, message: Record<Language, string>): void {
  res
    .status(429)
    .setHeader('Retry-After', String(Math.max(1, Math.ceil(retryAfterMs / 1000))))
    .setHeader('Cache-Control', 'no-store')
    .json({ status: 429, error: 'Too Many Requests', message: message[languageOf(req, res)], retryAfter: RETRY_AFTER_BODY_SECONDS });
}
