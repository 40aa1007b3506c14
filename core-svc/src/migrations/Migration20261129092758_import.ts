import { Migration } from '@mikro-orm/migrations';

/**
 * The service's import runs and their rows' errors (libs/service-kit/src/import/run-entity.ts,
 * docs/adr/0157-importing-files-into-the-registry.md), behind the tenant wall, as migration:create wrote them.
 */
export class Migration20261129092758_import extends Migration {

  override name = 'Migration20261129092758_import';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."core_import_error" ("id" bigserial primary key, "run_id" bigint not null, "cr_process_id" bigint not null, "row_number" int not null, "column_name" varchar(255) null, "field" varchar(64) null, "code" varchar(16) not null, "message_key" varchar(64) not null, "message_params" jsonb not null);`);
    this.addSql(`create index "core_import_error_run_index" on "core"."core_import_error" ("run_id", "row_number");`);

    this.addSql(`create table "core"."core_import_run" ("id" bigserial primary key, "cr_process_id" bigint not null, "entity" varchar(64) not null, "file_name" varchar(255) not null, "file_size" bigint not null, "format" varchar(8) not null, "status" varchar(16) not null, "file" bytea null, "header" jsonb not null, "mapping" jsonb not null, "update_by_code" boolean not null default false, "mode" varchar(8) null, "cancel_requested" boolean not null default false, "total_rows" int not null default 0, "processed" int not null default 0, "created" int not null default 0, "updated" int not null default 0, "unchanged" int not null default 0, "failed" int not null default 0, "message_key" varchar(64) null, "message_params" jsonb null, "created_by" varchar(100) not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "finished_at" timestamptz null);`);
    this.addSql(`create index "core_import_run_tenant_index" on "core"."core_import_run" ("cr_process_id", "entity", "id");`);

    this.addSql(`alter table "core"."core_import_error" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."core_import_error" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "core"."core_import_run" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."core_import_run" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."core_import_error" cascade;`);
    this.addSql(`drop table if exists "core"."core_import_run" cascade;`);
  }

}
