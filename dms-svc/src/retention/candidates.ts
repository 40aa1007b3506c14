/**
 * Which files retention acts on (docs/interface.md#retention-and-audit), as SQL shared by the run (which claims them) and
 * the dry run (which only lists them), so that the dry run lists exactly what the run does.
 */

/** What a policy names: its tenant, age, and the optional category and entity type. */
export interface PolicyScope {
  crProcessId: number;
  retentionDays: number;
  categoryId: number | null;
  entityType: string | null;
}

/**
 * The files a policy acts on now: live files of its tenant, of its category and entity type when it
 * names them, uploaded more than retentionDays ago.
 */
export function policyCandidates(policy: PolicyScope): { where: string; params: unknown[] } {
  return {
    where: `f.cr_process_id = ? and f.deleted = false
       and f.upload_date < now() - make_interval(days => ?)
       and (?::bigint is null or f.category_id = ?)
       and (?::text is null or f.entity_type = ?)
       ${NOT_HELD}`,
    params: [policy.crProcessId, policy.retentionDays, policy.categoryId, policy.categoryId, policy.entityType, policy.entityType],
  };
}

/**
 * The soft-deleted files of a tenant deleted more than purgeAfterDays ago. A soft-deleted row can
 * no longer be updated (the engine hides it from update), so its updated_at is when it was deleted.
 */
export function purgeCandidates(crProcessId: number, purgeAfterDays: number): { where: string; params: unknown[] } {
  return {
    where: `f.cr_process_id = ? and f.deleted = true
       and f.updated_at < now() - make_interval(days => ?)
       ${NOT_HELD}`,
    params: [crProcessId, purgeAfterDays],
  };
}

/**
 * The one place where files under legal hold are kept out of retention (the issue: "a legal hold on
 * a file keeps it from deletion and retention until lifted"), for the run, the purge and the dry run.
 */
const NOT_HELD = 'and f.legal_hold = false';
