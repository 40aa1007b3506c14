import { Migration } from '@mikro-orm/migrations';

export class Migration20261122002006 extends Migration {

  override name = 'Migration20261122002006';

  override up(): void | Promise<void> {
    this.addSql(`create schema if not exists "bpm";`);
    this.addSql(`create table "bpm"."business_partner" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "partner_code" varchar(64) not null, "partner_name" varchar(255) not null, "partner_type" varchar(32) not null, "tax_number" varchar(32) null, "email" varchar(255) null, "phone" varchar(32) null, "country_id" bigint null, "city_id" bigint null, "address" varchar(1000) null);`);
    this.addSql(`create index "business_partner_cr_process_id_index" on "bpm"."business_partner" ("cr_process_id");`);
    this.addSql(`alter table "bpm"."business_partner" add constraint "business_partner_cr_process_id_partner_code_unique" unique ("cr_process_id", "partner_code");`);

    this.addSql(`create table "bpm"."branch" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "business_partner_id" bigint not null, "branch_name" varchar(255) not null, "branch_code" varchar(64) not null, "address" varchar(1000) null, "phone" varchar(32) null, "email" varchar(255) null);`);
    this.addSql(`create index "branch_business_partner_id_index" on "bpm"."branch" ("business_partner_id");`);
    this.addSql(`create index "branch_cr_process_id_index" on "bpm"."branch" ("cr_process_id");`);
    this.addSql(`alter table "bpm"."branch" add constraint "branch_cr_process_id_business_partner_id_branch_code_unique" unique ("cr_process_id", "business_partner_id", "branch_code");`);

    this.addSql(`alter table "bpm"."branch" add constraint "branch_business_partner_id_foreign" foreign key ("business_partner_id") references "bpm"."business_partner" ("id") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "bpm"."branch" drop constraint "branch_business_partner_id_foreign";`);

    this.addSql(`drop table if exists "bpm"."business_partner" cascade;`);
    this.addSql(`drop table if exists "bpm"."branch" cascade;`);

    this.addSql(`drop schema if exists "bpm";`);
  }

}
