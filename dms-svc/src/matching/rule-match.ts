import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import type { MatchType } from '@platform/contracts/dms/dms-matching-rule.ts';
import { INVALID_REGEX, probe, sqlStateOf, TIMED_OUT } from './probe.ts';

/** A rule of the file's tenant that matched the file's text. */
export interface MatchedRule {
  ruleId: number;
  categoryId: number;
}

interface RuleRow {
  id: string;
  match_type: MatchType;
  pattern: string;
  category_id: string;
  /** The word rules' verdict, computed with the rules; null for a REGEX rule (tried on its own). */
  matched: boolean | null;
}

/** A word of the pattern (split at whitespace) as the file's own configuration reads it: empty for a stop word. */
const WORD = `plainto_tsquery(x.cfg, w)`;
const WORDS = `regexp_split_to_table(r.pattern, '\\s+') as w`;

/**
 * The active rules of the file's tenant, by ruleOrder then id, each ANY, ALL and PHRASE rule with
 * its verdict against the file's DONE text row. Words are matched as the search matches them: each
 * is made a query by plainto_tsquery in the file's language's folded configuration (accents and
 * endings aside), never spliced into SQL text. ANY: one word's query matches; ALL: every word's
 * does; PHRASE: phraseto_tsquery of the whole pattern. Stop words (empty queries) are left out; a
 * pattern of stop words alone matches nothing.
 */
const RULES = `
  with x as (
    select t.search,
           case t.language when 'turkish' then 'dms.turkish_folded'::regconfig else 'dms.english_folded'::regconfig end as cfg
      from dms.dms_file_text t
     where t.file_id = ? and t.cr_process_id = ? and t.status = 'DONE'
  )
  select r.id, r.match_type, r.pattern, r.category_id,
         case r.match_type
           when 'ANY' then x.search is not null
             and exists (select 1 from ${WORDS} where numnode(${WORD}) > 0 and x.search @@ ${WORD})
           when 'ALL' then x.search is not null
             and exists (select 1 from ${WORDS} where numnode(${WORD}) > 0)
             and not exists (select 1 from ${WORDS} where numnode(${WORD}) > 0 and not (x.search @@ ${WORD}))
           when 'PHRASE' then x.search is not null
             and numnode(phraseto_tsquery(x.cfg, r.pattern)) > 0 and x.search @@ phraseto_tsquery(x.cfg, r.pattern)
         end as matched
    from dms.dms_matching_rule r cross join x
   where r.cr_process_id = ? and r.status
   order by r.rule_order, r.id`;

/**
 * The first active rule of the tenant (ruleOrder, then id) that matches the file's extracted text,
 * or null (no DONE text, no rule, none matches). A REGEX rule runs `content ~* pattern` alone, in a
 * savepoint under `statement_timeout` = timeoutMs: one that times out (or that PostgreSQL cannot
 * compile) is skipped for this file and logged, and the next rule is tried. `em` is in a transaction.
 */
export async function firstMatchingRule(
  em: EntityManager,
  file: { fileId: number; crProcessId: number },
  timeoutMs: number,
  log?: Logger,
): Promise<MatchedRule | null> {
  const rules = await em.execute<RuleRow[]>(RULES, [file.fileId, file.crProcessId, file.crProcessId]);
  for (const rule of rules) {
    const matched = rule.match_type === 'REGEX' ? await regexMatches(em, file, rule, timeoutMs, log) : rule.matched === true;
    if (matched) return { ruleId: Number(rule.id), categoryId: Number(rule.category_id) };
  }
  return null;
}

async function regexMatches(
  em: EntityManager,
  file: { fileId: number; crProcessId: number },
  rule: RuleRow,
  timeoutMs: number,
  log: Logger | undefined,
): Promise<boolean> {
  try {
    return await probe(em, async () => {
      await em.execute(`select set_config('statement_timeout', ?, true)`, [String(timeoutMs)]);
      const [row] = await em.execute<{ matched: boolean | null }[]>(
        `select t.content ~* ? as matched from dms.dms_file_text t where t.file_id = ? and t.cr_process_id = ?`,
        [rule.pattern, file.fileId, file.crProcessId],
      );
      return row?.matched === true;
    });
  } catch (error) {
    const state = sqlStateOf(error);
    if (state !== TIMED_OUT && state !== INVALID_REGEX) throw error;
    log?.warn({ fileId: file.fileId, crProcessId: file.crProcessId, ruleId: Number(rule.id), timeoutMs, sqlState: state }, 'matching rule skipped for a file');
    return false;
  }
}
