import { Migration } from '@mikro-orm/migrations';

export class Migration20261123161917_licenses_and_lookups extends Migration {

  override name = 'Migration20261123161917_licenses_and_lookups';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."corporation_contact" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "full_name" varchar(255) not null, "title" varchar(255) null, "email" varchar(255) null, "phone" varchar(32) null, "department" varchar(255) null);`);
    this.addSql(`create index "corporation_contact_cr_process_id_index" on "core"."corporation_contact" ("cr_process_id");`);

    this.addSql(`create table "core"."country" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "code" varchar(2) not null, "name" varchar(255) not null);`);
    this.addSql(`create index "country_cr_process_id_index" on "core"."country" ("cr_process_id");`);
    this.addSql(`alter table "core"."country" add constraint "country_cr_process_id_code_unique" unique ("cr_process_id", "code");`);
    this.addSql(`alter table "core"."country" add constraint "country_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`create table "core"."city" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "country_id" bigint not null, "name" varchar(255) not null, "code" varchar(16) null);`);
    this.addSql(`create index "city_country_id_index" on "core"."city" ("country_id");`);
    this.addSql(`create index "city_cr_process_id_index" on "core"."city" ("cr_process_id");`);

    this.addSql(`create table "core"."currency" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "code" varchar(3) not null, "name" varchar(255) not null, "symbol" varchar(8) null, "fraction_digits" int not null default 2);`);
    this.addSql(`create index "currency_cr_process_id_index" on "core"."currency" ("cr_process_id");`);
    this.addSql(`alter table "core"."currency" add constraint "currency_cr_process_id_code_unique" unique ("cr_process_id", "code");`);

    this.addSql(`create table "core"."license" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "license_key" varchar(128) not null, "license_type" varchar(32) not null, "max_users" int not null, "valid_from" date not null, "valid_until" date not null, "account_no" varchar(64) null);`);
    this.addSql(`create index "license_account_no_index" on "core"."license" ("account_no");`);
    this.addSql(`create index "license_cr_process_id_index" on "core"."license" ("cr_process_id");`);
    this.addSql(`alter table "core"."license" add constraint "license_license_key_unique" unique ("license_key");`);

    this.addSql(`create table "core"."license_history" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "license_id" bigint not null, "action" varchar(32) not null, "snapshot" text not null, "changed_by" varchar(64) not null, "changed_at" timestamptz not null);`);
    this.addSql(`create index "license_history_cr_process_id_index" on "core"."license_history" ("cr_process_id");`);

    this.addSql(`alter table "core"."city" add constraint "city_country_id_foreign" foreign key ("cr_process_id", "country_id") references "core"."country" ("cr_process_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "core"."license" add constraint "license_account_no_foreign" foreign key ("account_no") references "core"."account" ("account_no") on update no action on delete no action;`);
    this.addSql(`alter table "core"."license" add constraint "license_valid_until_not_before" check (valid_until >= valid_from);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."city" drop constraint "city_country_id_foreign";`);

    this.addSql(`drop table if exists "core"."corporation_contact" cascade;`);
    this.addSql(`drop table if exists "core"."country" cascade;`);
    this.addSql(`drop table if exists "core"."city" cascade;`);
    this.addSql(`drop table if exists "core"."currency" cascade;`);
    this.addSql(`drop table if exists "core"."license" cascade;`);
    this.addSql(`drop table if exists "core"."license_history" cascade;`);
  }

}
