import { Migration } from '@mikro-orm/migrations';

/**
 * A record's files by (tenant, entityType, entityId): its page's related list and
 * GET /api/dms-file/by-entity, read off an index (docs/adr/0114-related-lists-follow-from-the-references.md),
 * as migration:create wrote it.
 */
export class Migration20261128132235_file_entity extends Migration {

  override name = 'Migration20261128132235_file_entity';

  override up(): void | Promise<void> {
    this.addSql(`create index "dms_file_cr_process_id_entity_type_entity_id_index" on "dms"."dms_file" ("cr_process_id", "entity_type", "entity_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "dms"."dms_file_cr_process_id_entity_type_entity_id_index";`);
  }

}
