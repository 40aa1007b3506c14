import { Migration } from '@mikro-orm/migrations';

export class Migration20261122002006 extends Migration {

  override name = 'Migration20261122002006';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "core";`);
    this.addSql(`create table "core"."account" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "account_no" varchar(64) not null, "account_name" varchar(255) not null, "tax_number" varchar(32) null, "email" varchar(255) null);`);
    this.addSql(`create index "account_cr_process_id_index" on "core"."account" ("cr_process_id");`);
    this.addSql(`alter table "core"."account" add constraint "account_cr_process_id_unique" unique ("cr_process_id");`);
    this.addSql(`alter table "core"."account" add constraint "account_account_no_unique" unique ("account_no");`);

    this.addSql(`create table "core"."session_log" ("id" bigserial primary key, "session_id" uuid not null, "user_code" varchar(64) not null, "user_process_id" bigint not null, "account_no" varchar(64) not null, "cr_process_id" bigint not null, "ip_address" varchar(64) null, "user_agent" varchar(1000) null, "project_code" varchar(100) null, "login_at" timestamptz not null, "last_seen_at" timestamptz not null, "expires_at" timestamptz not null, "logout_at" timestamptz null, "active" boolean not null default true);`);
    this.addSql(`alter table "core"."session_log" add constraint "session_log_session_id_unique" unique ("session_id");`);
    this.addSql(`create index "session_log_user_code_index" on "core"."session_log" ("user_code");`);

    this.addSql(`create table "core"."user_info" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "user_code" varchar(64) not null, "user_description" varchar(255) not null, "password" varchar(72) not null, "email" varchar(255) null, "language_code" varchar(32) not null default 'en', "super_user" boolean not null default false, "token_version" int not null default 0);`);
    this.addSql(`create index "user_info_cr_process_id_index" on "core"."user_info" ("cr_process_id");`);
    this.addSql(`alter table "core"."user_info" add constraint "user_info_user_code_unique" unique ("user_code");`);

    this.addSql(`create table "core"."user_process" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "user_code" varchar(64) not null, "user_description" varchar(255) null);`);
    this.addSql(`create index "user_process_cr_process_id_index" on "core"."user_process" ("cr_process_id");`);
    this.addSql(`alter table "core"."user_process" add constraint "user_process_user_code_unique" unique ("user_code");`);

    this.addSql(`create table "core"."user_process_select" ("id" bigserial primary key, "user_process_id" bigint not null, "account_id" bigint not null);`);
    this.addSql(`alter table "core"."user_process_select" add constraint "user_process_select_unique" unique ("user_process_id", "account_id");`);

    this.addSql(`alter table "core"."user_process_select" add constraint "user_process_select_user_process_id_foreign" foreign key ("user_process_id") references "core"."user_process" ("id") on delete cascade;`);
    this.addSql(`alter table "core"."user_process_select" add constraint "user_process_select_account_id_foreign" foreign key ("account_id") references "core"."account" ("id") on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."user_process_select" drop constraint "user_process_select_account_id_foreign";`);
    this.addSql(`alter table "core"."user_process_select" drop constraint "user_process_select_user_process_id_foreign";`);

    this.addSql(`drop table if exists "core"."account" cascade;`);
    this.addSql(`drop table if exists "core"."session_log" cascade;`);
    this.addSql(`drop table if exists "core"."user_info" cascade;`);
    this.addSql(`drop table if exists "core"."user_process" cascade;`);
    this.addSql(`drop table if exists "core"."user_process_select" cascade;`);

    this.addSql(`drop schema if exists "core";`);
  }

}
