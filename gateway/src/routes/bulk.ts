import type { Metadata } from '@grpc/grpc-js';
import type { Request, Response } from 'express';
import { httpStatusOf } from '@platform/kit/errors/codes.ts';
import { unauthenticated } from '@platform/kit/errors/domain-error.ts';
import type { ExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import type { SessionCheck } from '../auth/session-check.ts';
import { bulkItem, bulkItems } from '../http/bulk-body.ts';
import { languageOf, sessionIsLive } from '../http/context.ts';
import { errorBody, failureOf } from '../http/errors.ts';
import { sendJson } from '../http/json-answer.ts';
import { recordToJson, type JsonObject } from '../http/record-json.ts';
import type { ChargeMore } from '../middleware/rate-limit.ts';
import type { CrudWrites } from './crud-writes.ts';

/** What a bulk route needs beyond the writes: the limiter's further charge, the exception log, the session check. */
export interface BulkDeps {
  chargeMore: ChargeMore;
  recordFailure: ExceptionRecorder;
  sessions: SessionCheck;
}

/**
 * One item's result: its index, the status its single route would have answered, and the record
 * written or the error body; an item after a 401 or a 5xx is `notRun`.
 */
type BulkResult = { index: number; status: number; record?: JsonObject; error?: Record<string, string> } | { index: number; notRun: true };

/**
 * `POST /api/{path}/bulk` (docs/interface.md#bulk-changes, docs/adr/0155-bulk-changes-item-by-item.md):
 * the items run in order, one after another, each by its single route's own reading and RPC with
 * the caller's metadata, so each is checked exactly as alone (roles, tenant, version, uniqueness,
 * references, events and history are the service's, per item) and sees the writes before it. The
 * answer is 200 with a result per item; not all-or-nothing. Before any item runs: the envelope is
 * read (400 for the whole request), the bulk is charged its further items in the rate limit (429),
 * and the caller's session is checked live (401). A 401 or a 5xx of an item stops the run: the rest
 * are not run, and say so. `userMetadata` is the single routes' own (routes/crud.ts).
 */
export function bulkRoute(resource: Resource, writes: CrudWrites, deps: BulkDeps, userMetadata: (req: Request, res: Response) => Metadata) {
  return async (req: Request, res: Response): Promise<void> => {
    const items = bulkItems(req.body);
    // the filter chain's step 3 counted the request once; the bulk counts as its items
    if (!(await deps.chargeMore(req, res, items.length - 1))) return;
    const metadata = userMetadata(req, res);
    // an item refused by the gateway reaches no service, which would have checked the session
    if (!(await sessionIsLive(res, deps.sessions).catch(() => true))) throw unauthenticated();
    const lang = languageOf(req, res);
    const results: BulkResult[] = [];
    let stopped = false;
    for (const [index, raw] of items.entries()) {
      if (stopped) {
        results.push({ index, notRun: true });
        continue;
      }
      try {
        results.push({ index, ...(await runItem(resource, writes, raw, metadata)) });
      } catch (error) {
        const { domain } = failureOf(deps.recordFailure, error, req, res);
        const status = httpStatusOf(domain);
        results.push({ index, status, error: errorBody(lang, domain) });
        stopped = status === 401 || status >= 500;
      }
    }
    const succeeded = results.filter((result) => 'status' in result && result.status < 300).length;
    const notRun = results.filter((result) => 'notRun' in result).length;
    sendJson(res, { results, succeeded, failed: results.length - succeeded - notRun, notRun });
  };
}

/** One item by its single route's write: the status that route answers (200 create and update, 204 delete) and the record. */
async function runItem(resource: Resource, writes: CrudWrites, raw: unknown, metadata: Metadata): Promise<{ status: number; record?: JsonObject }> {
  const item = bulkItem(resource, raw);
  switch (item.action) {
    case 'create':
      return { status: 200, record: recordToJson(resource, await writes.create(item.record, metadata)) };
    case 'update':
      return { status: 200, record: recordToJson(resource, await writes.update(item.key, item.record, undefined, metadata)) };
    case 'delete':
      await writes.delete(item.key, item.version === undefined ? undefined : { any: false, versions: [item.version] }, metadata);
      return { status: 204 };
  }
}
