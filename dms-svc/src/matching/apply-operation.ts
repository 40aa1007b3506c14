import { assertTenant, type CallContext } from '@platform/service-kit/auth/caller.ts';
import { roleOf } from '@platform/service-kit/crud/handlers.ts';
import { DomainError } from '@platform/kit/errors/domain-error.ts';
import type { ApplyDmsMatchingRulesRequest, ApplyDmsMatchingRulesResponse } from '@platform/kit/gen/platform/dms/v1/dms_matching_rule.ts';
import type { Logger } from '@platform/kit/log/logger.ts';
import { requiring } from '@platform/service-kit/grpc/requiring.ts';
import { dmsMatchingRule } from '@platform/contracts/dms/dms-matching-rule.ts';
import { applyMatchingRules } from './apply-rules.ts';

/** Files read per page of the walk; each is then applied to in a transaction of its own. */
const BATCH = 100;

/**
 * ApplyDmsMatchingRules (docs/interface.md#matching-rules): the tenant's rules applied again to
 * every live file whose text is extracted (DONE) and that has no category, after rules were added
 * or changed. Needs dms-matching-rule:write; crProcessId is required (400 SVC-SYS-2002) and a user
 * who is not a super user may name only its own tenant (403 SVC-SYS-1003). Files are walked by id
 * a page at a time and each is applied to in its own transaction (apply-rules.ts), so a long run
 * holds no lock beyond one file and what it did stays done if it stops halfway.
 */
export function matchingRuleOperations(log: Logger, regexTimeoutMs: number) {
  return () => ({
    applyDmsMatchingRules: requiring(
      roleOf(dmsMatchingRule, 'write'),
      async (request: ApplyDmsMatchingRulesRequest, ctx: CallContext): Promise<ApplyDmsMatchingRulesResponse> => {
        const crProcessId = request.crProcessId;
        if (!crProcessId) throw new DomainError('SVC-SYS-2002', 'filter.crProcessIdRequired');
        assertTenant(ctx, crProcessId);
        let checked = 0;
        let assigned = 0;
        let after = 0;
        for (;;) {
          const page = await ctx.em.execute<{ id: string }[]>(
            `select f.id from dms.dms_file f join dms.dms_file_text t on t.file_id = f.id and t.cr_process_id = f.cr_process_id
              where f.cr_process_id = ? and not f.deleted and f.category_id is null and t.status = 'DONE' and f.id > ?
              order by f.id limit ${BATCH}`,
            [crProcessId, after],
          );
          for (const { id } of page) {
            checked += 1;
            if ((await applyMatchingRules(ctx.em, { fileId: Number(id), crProcessId, regexTimeoutMs }, log)) !== null) assigned += 1;
          }
          if (page.length < BATCH) break;
          after = Number(page[page.length - 1]?.id);
        }
        return { checked, assigned };
      },
    ),
  });
}
