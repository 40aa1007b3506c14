import type { EntityManager } from '@mikro-orm/postgresql';
import type { Logger } from '@platform/kit/log/logger.ts';
import { appendAudit } from '../audit/append-audit.ts';
import type { FileStorage } from '../files/storage.ts';
import type { AuditAction } from '@platform/contracts/dms/dms-audit-log.ts';
import { recordEvent } from '@platform/service-kit/events/outbox.ts';
import { policyCandidates, purgeCandidates } from './candidates.ts';

/** Files one transaction claims and acts on. */
const BATCH = 100;
/** Who retention's audit rows and updates name. */
export const RETENTION_ACTOR = 'svc:dms';

export interface RetentionCounts {
  softDeleted: number;
  purgedByPolicy: number;
  purged: number;
}

interface PolicyRow {
  id: string;
  cr_process_id: string;
  retention_days: number;
  category_id: string | null;
  entity_type: string | null;
  action: string;
}

interface Claimed {
  id: string;
  cr_process_id: string;
  version: number;
  stored_file_name: string | null;
  original_file_name: string | null;
}

type Act =
  { kind: 'soft-delete'; action: AuditAction; details: Record<string, unknown> } | { kind: 'purge'; action: AuditAction; details: Record<string, unknown> };

/**
 * One retention run (docs/interface.md#retention-and-audit): every active policy (of one tenant, or of all), SOFT_DELETE
 * or PURGE on its candidates, then the purge of soft-deleted files older than the tenant's
 * purgeAfterDays. Safe with several replicas and runs at once: files are claimed in batches with
 * SELECT ... FOR UPDATE SKIP LOCKED, so each is acted on and audited by exactly one transaction (a
 * row another run has claimed is skipped; once that run commits it no longer matches). Each file's
 * audit row and events are written in the transaction that acts on it. Bytes are removed only after the
 * transaction that deleted their row has committed: a failed commit leaves the row and its bytes.
 */
export async function runRetention(em: EntityManager, storage: FileStorage, log: Logger, crProcessId?: number): Promise<RetentionCounts> {
  const counts: RetentionCounts = { softDeleted: 0, purgedByPolicy: 0, purged: 0 };
  const tenant = crProcessId === undefined ? '' : 'and cr_process_id = ?';
  const tenantParams = crProcessId === undefined ? [] : [crProcessId];
  const policies = await em.execute<PolicyRow[]>(
    `select id, cr_process_id, retention_days, category_id, entity_type, action from dms.dms_retention_policy where status = true ${tenant} order by id`,
    tenantParams,
  );
  for (const policy of policies) {
    const candidates = policyCandidates({
      crProcessId: Number(policy.cr_process_id),
      retentionDays: policy.retention_days,
      categoryId: policy.category_id === null ? null : Number(policy.category_id),
      entityType: policy.entity_type,
    });
    const details = { policyId: Number(policy.id) };
    if (policy.action === 'PURGE') counts.purgedByPolicy += await drain(em, storage, log, candidates, { kind: 'purge', action: 'RETENTION_PURGE', details });
    else counts.softDeleted += await drain(em, storage, log, candidates, { kind: 'soft-delete', action: 'RETENTION_SOFT_DELETE', details });
  }
  const configs = await em.execute<{ cr_process_id: string; purge_after_days: number }[]>(
    `select cr_process_id, purge_after_days from dms.dms_account_config where status = true and purge_after_days is not null ${tenant} order by cr_process_id`,
    tenantParams,
  );
  for (const config of configs) {
    const candidates = purgeCandidates(Number(config.cr_process_id), config.purge_after_days);
    counts.purged += await drain(em, storage, log, candidates, { kind: 'purge', action: 'PURGE', details: { purgeAfterDays: config.purge_after_days } });
  }
  if (counts.softDeleted + counts.purgedByPolicy + counts.purged > 0) log.info({ ...counts, crProcessId }, 'retention');
  return counts;
}

/** Claims and acts on batches of candidates until a batch comes back short. */
async function drain(em: EntityManager, storage: FileStorage, log: Logger, candidates: { where: string; params: unknown[] }, act: Act): Promise<number> {
  let total = 0;
  for (;;) {
    const { count, removed } = await em.transactional(async (tx) => {
      const rows = await tx.execute<Claimed[]>(
        `select f.id, f.cr_process_id, f.version, f.stored_file_name, f.original_file_name from dms.dms_file f
          where ${candidates.where} order by f.id limit ${BATCH} for update of f skip locked`,
        candidates.params,
      );
      if (rows.length === 0) return { count: 0, removed: [] as string[] };
      const ids = rows.map((row) => Number(row.id));
      const list = ids.map(() => '?').join(', ');
      let shareLinks: { id: string; file_id: string; version: number }[] = [];
      if (act.kind === 'soft-delete') {
        await tx.execute(`update dms.dms_file set deleted = true, version = version + 1, updated_at = now(), updated_by = ? where id in (${list})`, [
          RETENTION_ACTOR,
          ...ids,
        ]);
      } else {
        // a purged file's share links can serve nothing; they go with it (and no foreign key blocks the delete)
        // (each file's own tenant only: a link's fileId is matched with its tenant, as a same-tenant key would)
        const pairs = rows.map(() => '(?, ?)').join(', ');
        shareLinks = await tx.execute(
          `delete from dms.dms_share_link where (cr_process_id, file_id) in (${pairs}) returning id, file_id, version`,
          rows.flatMap((row) => [row.cr_process_id, row.id]),
        );
        await tx.execute(`delete from dms.dms_file where id in (${list})`, ids);
      }
      for (const row of rows) {
        const ownLinks = shareLinks.filter((link) => link.file_id === row.id);
        const links = ownLinks.map((link) => Number(link.id));
        await appendAudit(tx, Number(row.cr_process_id), {
          action: act.action,
          userCode: RETENTION_ACTOR,
          fileId: Number(row.id),
          details: { ...act.details, originalFileName: row.original_file_name, ...(links.length > 0 ? { shareLinkIds: links } : {}) },
        });
        await recordRetentionEvents(tx, act, row, ownLinks);
      }
      const removed = act.kind === 'purge' ? rows.flatMap((row) => (row.stored_file_name ? [row.stored_file_name] : [])) : [];
      return { count: rows.length, removed };
    });
    // only now, the rows' deletion committed
    for (const name of removed) await removeBytes(storage, name, log);
    total += count;
    if (count < BATCH) return total;
  }
}

/**
 * The events of what retention did to one file, in the transaction that did it: a soft delete is
 * `dms-file.deleted` (deleted false → true, the version raised), a purge `dms-file.purged` and, for
 * each of its share links deleted with it, `dms-share-link.deleted`.
 */
async function recordRetentionEvents(tx: EntityManager, act: Act, row: Claimed, links: readonly { id: string; file_id: string; version: number }[]) {
  const crProcessId = Number(row.cr_process_id);
  const event = { crProcessId, actor: RETENTION_ACTOR };
  if (act.kind === 'soft-delete') {
    await recordEvent(tx, {
      ...event,
      type: 'dms-file.deleted',
      key: row.id,
      version: Number(row.version) + 1,
      changes: { deleted: { from: false, to: true } },
    });
    return;
  }
  for (const link of links) {
    await recordEvent(tx, {
      ...event,
      type: 'dms-share-link.deleted',
      key: link.id,
      version: Number(link.version),
      changes: { fileId: { from: Number(link.file_id), to: null } },
    });
  }
  await recordEvent(tx, {
    ...event,
    type: 'dms-file.purged',
    key: row.id,
    version: Number(row.version),
    changes: { originalFileName: { from: row.original_file_name, to: null } },
  });
}

async function removeBytes(storage: FileStorage, storedFileName: string, log: Logger): Promise<void> {
  try {
    await storage.remove(storedFileName);
  } catch (error) {
    // left to the storage sweep: no row names them any more
    log.warn({ storedFileName, err: error }, 'retention: bytes of a purged file not removed');
  }
}
