import { fileURLToPath } from 'node:url';
import { BigIntType, EntitySchema, type TriggerDef } from '@mikro-orm/postgresql';
import { entitySchemas, type Row } from '@platform/service-kit/db/entity-schema.ts';
import { tenantCountSchemas } from '@platform/service-kit/db/tenant-count.ts';
import { outboxEntity } from '@platform/service-kit/events/outbox-entity.ts';
import { importEntities } from '@platform/service-kit/import/run-entity.ts';
import { idempotencyEntity } from '@platform/service-kit/idempotency/idempotency-entity.ts';
import type { RowOf } from '@platform/service-kit/crud/records.ts';
import type { Resource } from '@platform/kit/resource/resource.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { SEARCH_KINDS } from '@platform/contracts/search.ts';
import { dmsAccountConfig } from '@platform/contracts/dms/dms-account-config.ts';
import { dmsAuditLog } from '@platform/contracts/dms/dms-audit-log.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';
import { dmsShareLink } from '@platform/contracts/dms/dms-share-link.ts';
import { tenantWall } from '@platform/service-kit/db/tenant-wall.ts';

/** The document service's own PostgreSQL schema. */
export const SCHEMA = 'dms';
// the fields the global search matches by prefix share the lists' prefix indexes (db/prefix-index.ts)
export const schemas = entitySchemas(dmsResources, SCHEMA, { 'dms-file': [fileTextDeleted()] }, SEARCH_KINDS);

/**
 * A soft delete takes the file's text row (DmsFileTextEntity), and its words with it, out of the
 * search, whichever path deletes the file (the API, retention): one trigger rather than each path.
 */
function fileTextDeleted(): TriggerDef<Row> {
  const fn = `"${SCHEMA}"."dms_file_dms_file_text_deleted_fn"`;
  return {
    name: 'dms_file_text_deleted',
    timing: 'after',
    events: ['update'],
    forEach: 'row',
    expression:
      `create or replace function ${fn}() returns trigger as $$ begin delete from "${SCHEMA}"."dms_file_text" where file_id = new.id; return null; end; $$ language plpgsql;\n` +
      `create trigger "dms_file_text_deleted" after update on "${SCHEMA}"."dms_file" for each row when (new.deleted and not old.deleted) execute function ${fn}();`,
  };
}

/** The entity of a resource, typed by its declaration (RowOf), for the service's own queries. */
function schemaOf<R extends Resource>(resource: R): EntitySchema<RowOf<R>> {
  const schema = schemas.get(resource.path);
  if (!schema) throw new Error(`no entity for ${resource.path}`);
  return schema as unknown as EntitySchema<RowOf<R>>;
}

export const DmsAuditLogEntity = schemaOf(dmsAuditLog);
export const DmsFileEntity = schemaOf(dmsFile);
export const DmsAccountConfigEntity = schemaOf(dmsAccountConfig);
export const DmsShareLinkEntity = schemaOf(dmsShareLink);

/**
 * A download slot of a share link held by a download under way (src/share/download-slot.ts): it
 * counts against maxDownloads while `lease_until` lies ahead, and the download renews it while its
 * bytes flow, so the slot of a download whose dms-svc died frees itself. Not a resource: the API
 * never shows it. Deleting the link deletes its slots.
 */
export const DmsShareDownloadSlotEntity = new EntitySchema<Row>({
  name: 'DmsShareDownloadSlot',
  tableName: 'dms_share_download_slot',
  schema: SCHEMA,
  properties: {
    id: { type: new BigIntType('number'), primary: true, autoincrement: true },
    shareLinkId: { kind: 'm:1', entity: () => DmsShareLinkEntity as never, mapToPk: true, fieldName: 'share_link_id', deleteRule: 'cascade', index: true },
    leaseUntil: { type: 'datetime', columnType: 'timestamptz' },
    startedAt: { type: 'datetime', columnType: 'timestamptz', defaultRaw: 'now()' },
  } as never,
});

/**
 * An unfinished resumable (tus) upload, as the quota and the open-upload limit count it
 * (files/upload-reservations.ts, docs/adr/0102-what-an-unfinished-resumable-upload.md): its declared length
 * reserved against the quota of the tenant it uploads to, and its owner (the user, in the tenant it
 * worked in) for the limit of open uploads. Written before tus creates the upload, deleted by the
 * transaction that makes it a dms-file, by its termination, by a refusal that removes it, and by
 * the sweep; past `expires_at` it counts no more. Not a resource: the API never shows it.
 */
export const DmsTusUploadEntity = new EntitySchema<Row>({
  name: 'DmsTusUpload',
  tableName: 'dms_tus_upload',
  policies: tenantWall(),
  schema: SCHEMA,
  properties: {
    /** The tus upload id (32 hex digits). */
    id: { type: 'string', length: 32, primary: true },
    /** The tenant whose quota the upload's length is reserved against (its crProcessId field). */
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id', index: true },
    ownerUser: { type: 'string', length: 100, fieldName: 'owner_user' },
    ownerTenant: { type: new BigIntType('number'), fieldName: 'owner_tenant' },
    uploadLength: { type: new BigIntType('number'), fieldName: 'upload_length' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'expires_at' },
  } as never,
  indexes: [{ name: 'dms_tus_upload_owner_index', properties: ['ownerUser', 'ownerTenant'] as never }],
});

/**
 * The lock of a resumable upload while a request writes it (tus/lease-locker.ts,
 * docs/adr/0146-through-a-transaction-pooler.md): one row per upload held, naming its holder (one
 * lock's random id), leased until `expires_at` and renewed while the request runs, so a holder
 * whose dms-svc died frees the upload once its lease lapses. A row, not a session lock, so that no
 * connection is held per upload and the lock holds through a pooler in transaction mode. Not a
 * resource: the API never shows it.
 */
export const DmsTusLockEntity = new EntitySchema<Row>({
  name: 'DmsTusLock',
  tableName: 'dms_tus_lock',
  schema: SCHEMA,
  properties: {
    /** The tus upload id (32 hex digits). */
    id: { type: 'string', length: 32, primary: true },
    holder: { type: 'uuid' },
    expiresAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'expires_at' },
  } as never,
});

/**
 * A file's text as extraction read it (src/text/, docs/adr/0159-documents-found-by-their-words.md):
 * one row per live file, written PENDING by the upload's transaction and then by the worker alone.
 * `status` is PENDING, RUNNING, DONE, FAILED (with `reason`) or SKIPPED (a type whose words are not
 * read, with `reason`); `attempts` counts the runs that took it, `lease_until` is how long a
 * RUNNING run holds it (a run whose worker died is taken again once it lapses). `search` is the
 * text search vector of the file's text, in `language`'s folded configuration
 * (dms.english_folded, dms.turkish_folded); the name, description and tags are matched on the file. A soft delete and a purge take the row
 * away, and its words with it. Not a resource: GET /api/dms-file/{id}/text shows it.
 */
export const DmsFileTextEntity = new EntitySchema<Row>({
  name: 'DmsFileText',
  tableName: 'dms_file_text',
  policies: tenantWall(),
  schema: SCHEMA,
  properties: {
    fileId: { kind: 'm:1', entity: () => DmsFileEntity as never, mapToPk: true, primary: true, fieldName: 'file_id', deleteRule: 'cascade' },
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id' },
    status: { type: 'string', length: 16, default: 'PENDING' },
    reason: { type: 'string', length: 500, nullable: true },
    attempts: { type: 'integer', default: 0 },
    language: { type: 'string', length: 16, nullable: true },
    method: { type: 'string', length: 16, nullable: true },
    pages: { type: 'integer', nullable: true },
    content: { type: 'text', nullable: true, lazy: true },
    truncated: { type: 'boolean', default: false },
    search: { type: 'unknown', columnType: 'tsvector', nullable: true, lazy: true },
    queuedAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'queued_at', defaultRaw: 'now()' },
    leaseUntil: { type: 'datetime', columnType: 'timestamptz', fieldName: 'lease_until', nullable: true },
    finishedAt: { type: 'datetime', columnType: 'timestamptz', fieldName: 'finished_at', nullable: true },
  } as never,
  indexes: [
    // the search's index: a tenant's words (btree_gin lets the tenant sit beside the vector)
    {
      name: 'dms_file_text_search_index',
      expression: 'create index "dms_file_text_search_index" on "dms"."dms_file_text" using gin ("cr_process_id", "search")',
    },
    // what the worker's sweep looks for
    {
      name: 'dms_file_text_open_index',
      expression: `create index "dms_file_text_open_index" on "dms"."dms_file_text" ("queued_at") where status in ('PENDING', 'RUNNING')`,
    },
  ],
  checks: [
    { name: 'dms_file_text_status_check', expression: "status in ('PENDING', 'RUNNING', 'DONE', 'FAILED', 'SKIPPED')" },
    { name: 'dms_file_text_attempts_check', expression: 'attempts >= 0' },
  ] as never,
});

/**
 * A tenant's words: every lexeme of its files' text search vectors, once, kept by the worker as it
 * writes a file's text, for the search's partial words (a trigram index finds the lexemes that hold
 * a fragment or are near a misspelt word). A word outlives the files that had it; it finds nothing
 * then. Not a resource.
 */
export const DmsTextWordEntity = new EntitySchema<Row>({
  name: 'DmsTextWord',
  tableName: 'dms_text_word',
  policies: tenantWall(),
  schema: SCHEMA,
  properties: {
    crProcessId: { type: new BigIntType('number'), fieldName: 'cr_process_id', primary: true },
    word: { type: 'string', length: 100, primary: true },
  } as never,
  indexes: [
    {
      name: 'dms_text_word_trigram_index',
      expression: 'create index "dms_text_word_trigram_index" on "dms"."dms_text_word" using gin ("cr_process_id", "word" gin_trgm_ops)',
    },
  ],
});

export const entities = [
  ...schemas.values(),
  ...tenantCountSchemas(dmsResources, SCHEMA),
  DmsShareDownloadSlotEntity,
  DmsTusUploadEntity,
  DmsTusLockEntity,
  DmsFileTextEntity,
  DmsTextWordEntity,
  outboxEntity(SCHEMA),
  ...importEntities(SCHEMA),
  idempotencyEntity(SCHEMA),
];
export const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));
