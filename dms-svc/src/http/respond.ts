import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CallContext } from '@platform/service-kit/auth/caller.ts';
import { httpStatusOf } from '@platform/kit/errors/codes.ts';
import { toDomainError } from '@platform/service-kit/errors/to-domain-error.ts';
import type { Runtime } from '@platform/service-kit/grpc/server.ts';
import { translate, type Language } from '@platform/kit/i18n/messages.ts';
import { scrubSecrets } from '@platform/kit/log/redaction.ts';
import { currentRequestId } from '@platform/kit/log/request-id.ts';
import { languageOfRequest } from './caller.ts';

/** A JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  res.end(text);
}

/**
 * Answers a failure with the error body of docs/interface.md#errors in the caller's language: domain errors
 * and the ORM's with their codes, anything else 500 SVC-SYS-5001 under a refId that the exception
 * log records. A response already under way is cut off instead; a request its client abandoned
 * is only closed.
 */
export function sendFailure(runtime: Runtime, req: IncomingMessage, res: ServerResponse, error: unknown, ctx?: CallContext): void {
  // the client went away while its body was read (or the gateway cut it off): nothing failed here,
  // and no one is left to answer
  if (req.destroyed && (error as NodeJS.ErrnoException | null)?.code === 'ECONNRESET') {
    res.destroy();
    return;
  }
  const claims = ctx?.caller.kind === 'user' ? ctx.caller.claims : undefined;
  const domain = toDomainError(error, ({ refId, error: cause }) => {
    // the URL may hold a credential: a signed download's token, a share link's
    const path = scrubSecrets(req.url ?? '');
    runtime.log.error({ path: path.slice(0, 200), method: req.method, refId, err: cause }, 'unexpected failure');
    runtime.recordFailure({
      refId,
      service: runtime.service,
      errorCode: 'SVC-SYS-5001',
      error: cause,
      path,
      method: req.method,
      userCode: claims?.userCode,
      crProcessId: claims?.crProcessId,
      projectCode: ctx?.projectCode,
      requestId: currentRequestId(),
    });
  });
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const lang: Language = ctx?.lang ?? languageOfRequest(req);
  const body: Record<string, string> = { status: 'ERROR', error_code: domain.code, message: translate(lang, domain.messageKey, domain.params) };
  if (domain.params.refId) body.refId = domain.params.refId;
  sendJson(res, httpStatusOf(domain), body);
}
