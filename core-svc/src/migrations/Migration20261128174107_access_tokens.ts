import { Migration } from '@mikro-orm/migrations';

export class Migration20261128174107_access_tokens extends Migration {

  override name = 'Migration20261128174107_access_tokens';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."access_token" ("token_id" varchar(32) not null, "session_id" uuid not null, "secret_hash" varchar(64) not null, "name" varchar(100) not null, "user_code" varchar(64) not null, "cr_process_id" bigint not null, "account_no" varchar(64) not null, "roles" text[] not null, "token_version" int not null, "created_at" timestamptz not null, "expires_at" timestamptz not null, "revoked_at" timestamptz null, "revoked_by" varchar(64) null, "last_used_at" timestamptz null, "last_used_ip" varchar(64) null, primary key ("token_id"));`);
    this.addSql(`alter table "core"."access_token" add constraint "access_token_session_id_unique" unique ("session_id");`);
    this.addSql(`create index "access_token_user_code_index" on "core"."access_token" ("user_code");`);
    this.addSql(`create index "access_token_cr_process_id_index" on "core"."access_token" ("cr_process_id");`);

    this.addSql(`alter table "core"."session_log" add "scope" text[] null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."access_token" cascade;`);

    this.addSql(`alter table "core"."session_log" drop column "scope";`);
  }

}
