import { Migration } from '@mikro-orm/migrations';

export class Migration20261123164141_documents extends Migration {

  override name = 'Migration20261123164141_documents';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "dms";`);
    this.addSql(`create table "dms"."dms_account_config" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "max_file_size" bigint null, "allowed_mime_types" varchar(2000) null, "storage_quota_bytes" bigint null, "purge_after_days" int null);`);
    this.addSql(`create index "dms_account_config_cr_process_id_index" on "dms"."dms_account_config" ("cr_process_id");`);
    this.addSql(`alter table "dms"."dms_account_config" add constraint "dms_account_config_cr_process_id_unique" unique ("cr_process_id");`);

    this.addSql(`create table "dms"."dms_audit_log" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "action" varchar(32) not null, "file_id" bigint null, "share_link_id" bigint null, "user_code" varchar(64) not null, "ip_address" varchar(64) null, "user_agent" varchar(1000) null, "details" text null, "previous_hash" varchar(64) not null, "hash" varchar(64) not null);`);
    this.addSql(`create index "dms_audit_log_cr_process_id_index" on "dms"."dms_audit_log" ("cr_process_id");`);

    this.addSql(`create table "dms"."dms_category" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "category_name" varchar(255) not null, "parent_id" bigint null, "description" varchar(1000) null, "parent_key" bigint not null default '0');`);
    this.addSql(`create index "dms_category_parent_id_index" on "dms"."dms_category" ("parent_id");`);
    this.addSql(`create index "dms_category_cr_process_id_index" on "dms"."dms_category" ("cr_process_id");`);
    this.addSql(`alter table "dms"."dms_category" add constraint "dms_category_cr_process_id_parent_key_category_name_unique" unique ("cr_process_id", "parent_key", "category_name");`);
    this.addSql(`alter table "dms"."dms_category" add constraint "dms_category_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`create table "dms"."dms_retention_policy" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "policy_name" varchar(255) not null, "retention_days" int not null, "category_id" bigint null, "entity_type" varchar(64) null, "action" varchar(32) not null default 'SOFT_DELETE');`);
    this.addSql(`create index "dms_retention_policy_category_id_index" on "dms"."dms_retention_policy" ("category_id");`);
    this.addSql(`create index "dms_retention_policy_cr_process_id_index" on "dms"."dms_retention_policy" ("cr_process_id");`);

    this.addSql(`create table "dms"."dms_share_link" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "file_id" bigint not null, "expires_at" timestamptz null, "password" varchar(72) null, "has_password" boolean not null default false, "max_downloads" int null, "token" varchar(64) null, "url" varchar(128) null, "download_count" int not null default 0);`);
    this.addSql(`create index "dms_share_link_cr_process_id_index" on "dms"."dms_share_link" ("cr_process_id");`);
    this.addSql(`alter table "dms"."dms_share_link" add constraint "dms_share_link_token_unique" unique ("token");`);

    this.addSql(`create or replace function "dms"."dms_audit_log_dms_audit_log_append_only_fn"() returns trigger as \$\$ begin raise exception 'dms_audit_log is append-only' using errcode = 'insufficient_privilege'; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "dms_audit_log_append_only" BEFORE UPDATE OR DELETE on "dms"."dms_audit_log" for each ROW execute function "dms"."dms_audit_log_dms_audit_log_append_only_fn"();`);

    this.addSql(`alter table "dms"."dms_category" add constraint "dms_category_parent_id_foreign" foreign key ("cr_process_id", "parent_id") references "dms"."dms_category" ("cr_process_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "dms"."dms_retention_policy" add constraint "dms_retention_policy_category_id_foreign" foreign key ("cr_process_id", "category_id") references "dms"."dms_category" ("cr_process_id", "id") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_category" drop constraint "dms_category_parent_id_foreign";`);
    this.addSql(`alter table "dms"."dms_retention_policy" drop constraint "dms_retention_policy_category_id_foreign";`);

    this.addSql(`drop table if exists "dms"."dms_account_config" cascade;`);
    this.addSql(`drop trigger if exists "dms_audit_log_append_only" on "dms"."dms_audit_log";`);
    this.addSql(`drop function if exists "dms"."dms_audit_log_dms_audit_log_append_only_fn"();`);
    this.addSql(`drop table if exists "dms"."dms_audit_log" cascade;`);
    this.addSql(`drop table if exists "dms"."dms_category" cascade;`);
    this.addSql(`drop table if exists "dms"."dms_retention_policy" cascade;`);
    this.addSql(`drop table if exists "dms"."dms_share_link" cascade;`);

    this.addSql(`drop schema if exists "dms";`);
  }

}
