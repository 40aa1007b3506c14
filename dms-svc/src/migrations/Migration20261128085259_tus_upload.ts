import { Migration } from '@mikro-orm/migrations';

/**
 * The reservations of unfinished resumable uploads (dms-svc/src/db.ts DmsTusUploadEntity,
 * docs/adr/0103-resumable-uploads-creation-owner.md), as migration:create wrote them.
 */
export class Migration20261128085259_tus_upload extends Migration {

  override name = 'Migration20261128085259_tus_upload';

  override up(): void | Promise<void> {
    this.addSql(`create table "dms"."dms_tus_upload" ("id" varchar(32) not null, "cr_process_id" bigint not null, "owner_user" varchar(100) not null, "owner_tenant" bigint not null, "upload_length" bigint not null, "expires_at" timestamptz not null, primary key ("id"));`);
    this.addSql(`create index "dms_tus_upload_cr_process_id_index" on "dms"."dms_tus_upload" ("cr_process_id");`);
    this.addSql(`create index "dms_tus_upload_owner_index" on "dms"."dms_tus_upload" ("owner_user", "owner_tenant");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dms"."dms_tus_upload" cascade;`);
  }

}
