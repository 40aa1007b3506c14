import type { AfterText } from '../text/read-file-text.ts';
import { applyMatchingRules } from './apply-rules.ts';

/**
 * What dms-worker does once a file's text is kept: the tenant's matching rules, the first that
 * matches filing a file that has no category (apply-rules.ts, docs/adr/0161-matching-rules-judged-in-sql.md).
 */
export function matchingRulesAfter(regexTimeoutMs: number): AfterText {
  return async (em, file, log) => {
    const ruleId = await applyMatchingRules(em, { fileId: file.fileId, crProcessId: file.crProcessId, regexTimeoutMs }, log);
    if (ruleId !== null) log.info({ fileId: file.fileId, ruleId }, 'filed by a matching rule');
  };
}
