import { Migration } from '@mikro-orm/migrations';

export class Migration20261123163732_dms_file extends Migration {

  override name = 'Migration20261123163732_dms_file';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "dms";`);
    this.addSql(`create table "dms"."dms_file" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "original_file_name" varchar(255) null, "stored_file_name" varchar(64) null, "file_size" bigint null, "mime_type" varchar(255) null, "upload_date" timestamptz null, "entity_type" varchar(64) null, "entity_id" bigint null, "integration_key" varchar(255) null, "category_id" bigint null, "description" varchar(1000) null, "tags" varchar(1000) null, "checksum" varchar(64) null, "deleted" boolean not null default false);`);
    this.addSql(`create index "dms_file_cr_process_id_index" on "dms"."dms_file" ("cr_process_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dms"."dms_file" cascade;`);

    this.addSql(`drop schema if exists "dms";`);
  }

}
