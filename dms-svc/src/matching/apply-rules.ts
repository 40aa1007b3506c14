import { LockMode, type EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import { changesOf } from '@platform/service-kit/crud/changes.ts';
import { keyText, recordEvent } from '@platform/service-kit/events/outbox.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { appendAudit } from '../audit/append-audit.ts';
import { matchingRegexTimeoutMsOf } from '../config.ts';
import { DmsFileEntity } from '../db.ts';
import { firstMatchingRule } from './rule-match.ts';

/** Who a category given by a matching rule is written and audited as: the service itself, as retention is. */
export const MATCHING_ACTOR = 'svc:dms';

/** The file the rules are applied to; `regexTimeoutMs` defaults to DMS_MATCHING_REGEX_TIMEOUT_MS (config.ts). */
export interface MatchingTarget {
  fileId: number;
  crProcessId: number;
  regexTimeoutMs?: number;
}

/**
 * Applies the tenant's matching rules to one file once its text is saved (docs/interface.md#matching-rules):
 * the first active rule (ruleOrder, then id) whose pattern matches the file's DONE text row gives
 * the file its category, when the file is live and has none. A category already set, by a person or
 * by an earlier rule, is never overridden. Written as the category move writes it
 * (resources/dms-file/dms-file.operations.ts): version + 1, updatedAt, updatedBy, a MOVE audit row
 * with details {from: null, to, ruleId} and the `dms-file.moved` event, all as `svc:dms`, in one
 * transaction (a savepoint of `em`'s, when it is in one). The file's row is locked only after the
 * rules ran, and its category checked again under the lock. Answers the id of the rule applied, or null.
 *
 * @example
 * // the extraction worker, after it saved a file's text
 * const ruleId = await applyMatchingRules(em, { fileId, crProcessId }, log);
 */
export async function applyMatchingRules(em: EntityManager, target: MatchingTarget, log?: Logger): Promise<number | null> {
  const { fileId, crProcessId } = target;
  const timeoutMs = target.regexTimeoutMs ?? matchingRegexTimeoutMsOf(process.env);
  return em.transactional(async (tx) => {
    const [open] = await tx.execute<unknown[]>('select 1 from dms.dms_file where id = ? and cr_process_id = ? and not deleted and category_id is null', [
      fileId,
      crProcessId,
    ]);
    if (!open) return null;
    const rule = await firstMatchingRule(tx, { fileId, crProcessId }, timeoutMs, log);
    if (!rule) return null;
    const current = await tx.findOne(DmsFileEntity, { id: fileId, crProcessId, deleted: false }, { lockMode: LockMode.PESSIMISTIC_WRITE });
    if (!current || current.categoryId != null) return null;
    const before = { ...current };
    Object.assign(current, { categoryId: rule.categoryId, version: Number(current.version) + 1, updatedAt: new Date(), updatedBy: MATCHING_ACTOR });
    await tx.flush();
    await appendAudit(tx, crProcessId, {
      action: 'MOVE',
      userCode: MATCHING_ACTOR,
      fileId,
      details: { from: null, to: rule.categoryId, ruleId: rule.ruleId },
    });
    await recordEvent(tx, {
      type: 'dms-file.moved',
      crProcessId,
      key: keyText(dmsFile, current),
      version: Number(current.version),
      actor: MATCHING_ACTOR,
      changes: changesOf(dmsFile, before, current),
    });
    log?.info({ fileId, crProcessId, ruleId: rule.ruleId, categoryId: rule.categoryId }, 'matching rule applied');
    return rule.ruleId;
  });
}
