import type { EntityManager } from '@mikro-orm/postgresql';
import { defineHooks } from '@platform/service-kit/crud/runtime.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { dmsMatchingRule } from '@platform/contracts/dms/dms-matching-rule.ts';
import { INVALID_REGEX, probe, sqlStateOf } from '../../matching/probe.ts';

/**
 * dms-matching-rule: a REGEX rule's pattern must compile as PostgreSQL reads it, checked on every
 * create and on every update that leaves the rule a REGEX one (the type or the pattern changed or
 * not): an invalid one is 400 SVC-SYS-2001 on `pattern`. Compiled in a savepoint, so the write's
 * transaction goes on after the refusal's statement failed.
 */
export const dmsMatchingRuleHooks = defineHooks(dmsMatchingRule, {
  async beforeWrite(values, _input, ctx, _mode, current) {
    const matchType = values.matchType ?? current?.matchType;
    const pattern = values.pattern ?? current?.pattern;
    if (matchType === 'REGEX' && typeof pattern === 'string') await assertCompiles(ctx.em, pattern);
  },
});

async function assertCompiles(em: EntityManager, pattern: string): Promise<void> {
  try {
    await probe(em, () => em.execute(`select '' ~* ? as matched`, [pattern]));
  } catch (error) {
    if (sqlStateOf(error) === INVALID_REGEX) throw invalidField('pattern', 'matchingRule.regex');
    throw error;
  }
}
