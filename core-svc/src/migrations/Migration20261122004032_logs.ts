import { Migration } from '@mikro-orm/migrations';

export class Migration20261122004032_logs extends Migration {

  override name = 'Migration20261122004032_logs';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."exception_log" ("id" bigserial primary key, "ref_id" uuid not null, "service" varchar(32) not null, "error_code" varchar(32) not null, "message" text not null, "path" varchar(1000) null, "method" varchar(16) null, "user_code" varchar(64) null, "cr_process_id" bigint null, "project_code" varchar(100) null, "stack" text null, "created_at" timestamptz not null);`);
    this.addSql(`alter table "core"."exception_log" add constraint "exception_log_ref_id_unique" unique ("ref_id");`);
    this.addSql(`create index "exception_log_created_at_index" on "core"."exception_log" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."exception_log" cascade;`);
  }

}
