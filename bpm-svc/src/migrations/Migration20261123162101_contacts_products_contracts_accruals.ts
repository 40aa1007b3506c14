import { Migration } from '@mikro-orm/migrations';

export class Migration20261123162101_contacts_products_contracts_accruals extends Migration {

  override name = 'Migration20261123162101_contacts_products_contracts_accruals';

  override up(): void | Promise<void> {
    this.addSql(`create table "bpm"."contact" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "business_partner_id" bigint not null, "branch_id" bigint null, "first_name" varchar(255) not null, "last_name" varchar(255) not null, "email" varchar(255) null, "phone" varchar(32) null, "title" varchar(255) null);`);
    this.addSql(`create index "contact_business_partner_id_index" on "bpm"."contact" ("business_partner_id");`);
    this.addSql(`create index "contact_branch_id_index" on "bpm"."contact" ("branch_id");`);
    this.addSql(`create index "contact_cr_process_id_index" on "bpm"."contact" ("cr_process_id");`);

    this.addSql(`create table "bpm"."contract" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "contract_no" varchar(64) not null, "business_partner_id" bigint not null, "start_date" date not null, "end_date" date null, "currency_code" varchar(3) not null, "billing_period" varchar(32) not null, "total_amount" numeric(19,4) null, "description" text null);`);
    this.addSql(`create index "contract_business_partner_id_index" on "bpm"."contract" ("business_partner_id");`);
    this.addSql(`create index "contract_cr_process_id_index" on "bpm"."contract" ("cr_process_id");`);
    this.addSql(`alter table "bpm"."contract" add constraint "contract_cr_process_id_contract_no_unique" unique ("cr_process_id", "contract_no");`);
    this.addSql(`alter table "bpm"."contract" add constraint "contract_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`create table "bpm"."product" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "product_code" varchar(64) not null, "product_name" varchar(255) not null, "unit" varchar(32) null, "unit_price" numeric(19,4) not null, "currency_code" varchar(3) not null, "vat_rate" numeric(19,4) null);`);
    this.addSql(`create index "product_cr_process_id_index" on "bpm"."product" ("cr_process_id");`);
    this.addSql(`alter table "bpm"."product" add constraint "product_cr_process_id_product_code_unique" unique ("cr_process_id", "product_code");`);
    this.addSql(`alter table "bpm"."product" add constraint "product_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`create table "bpm"."contract_item" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "contract_id" bigint not null, "product_id" bigint not null, "quantity" numeric(19,4) not null, "unit_price" numeric(19,4) not null, "description" varchar(1000) null, "line_total" numeric(38,4) generated always as (quantity * unit_price) stored null);`);
    this.addSql(`create index "contract_item_contract_id_index" on "bpm"."contract_item" ("contract_id");`);
    this.addSql(`create index "contract_item_product_id_index" on "bpm"."contract_item" ("product_id");`);
    this.addSql(`create index "contract_item_cr_process_id_index" on "bpm"."contract_item" ("cr_process_id");`);
    this.addSql(`alter table "bpm"."contract_item" add constraint "contract_item_cr_process_id_contract_id_id_unique" unique ("cr_process_id", "contract_id", "id");`);

    this.addSql(`create table "bpm"."accrual" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "contract_id" bigint not null, "contract_item_id" bigint null, "period_start" date not null, "period_end" date not null, "amount" numeric(19,4) not null, "currency_code" varchar(3) not null, "accrual_status" varchar(32) not null default 'PENDING', "approved_at" timestamptz null, "approved_by" varchar(255) null, "invoiced_at" timestamptz null, "invoice_no" varchar(64) null, "cancelled_at" timestamptz null, "cancel_reason" varchar(1000) null);`);
    this.addSql(`create index "accrual_contract_id_index" on "bpm"."accrual" ("contract_id");`);
    this.addSql(`create index "accrual_contract_item_id_index" on "bpm"."accrual" ("contract_item_id");`);
    this.addSql(`create index "accrual_cr_process_id_index" on "bpm"."accrual" ("cr_process_id");`);

    this.addSql(`alter table "bpm"."branch" add constraint "branch_cr_process_id_business_partner_id_id_unique" unique ("cr_process_id", "business_partner_id", "id");`);

    this.addSql(`alter table "bpm"."contact" add constraint "contact_business_partner_id_foreign" foreign key ("cr_process_id", "business_partner_id") references "bpm"."business_partner" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "bpm"."contact" add constraint "contact_branch_id_foreign" foreign key ("cr_process_id", "business_partner_id", "branch_id") references "bpm"."branch" ("cr_process_id", "business_partner_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "bpm"."contract" add constraint "contract_business_partner_id_foreign" foreign key ("cr_process_id", "business_partner_id") references "bpm"."business_partner" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "bpm"."contract" add constraint "contract_end_date_not_before" check (end_date >= start_date);`);

    this.addSql(`alter table "bpm"."contract_item" add constraint "contract_item_contract_id_foreign" foreign key ("cr_process_id", "contract_id") references "bpm"."contract" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "bpm"."contract_item" add constraint "contract_item_product_id_foreign" foreign key ("cr_process_id", "product_id") references "bpm"."product" ("cr_process_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "bpm"."accrual" add constraint "accrual_contract_id_foreign" foreign key ("cr_process_id", "contract_id") references "bpm"."contract" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "bpm"."accrual" add constraint "accrual_contract_item_id_foreign" foreign key ("cr_process_id", "contract_id", "contract_item_id") references "bpm"."contract_item" ("cr_process_id", "contract_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "bpm"."accrual" add constraint "accrual_period_end_not_before" check (period_end >= period_start);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "bpm"."contract_item" drop constraint "contract_item_contract_id_foreign";`);
    this.addSql(`alter table "bpm"."accrual" drop constraint "accrual_contract_id_foreign";`);
    this.addSql(`alter table "bpm"."contract_item" drop constraint "contract_item_product_id_foreign";`);
    this.addSql(`alter table "bpm"."accrual" drop constraint "accrual_contract_item_id_foreign";`);

    this.addSql(`drop table if exists "bpm"."contact" cascade;`);
    this.addSql(`drop table if exists "bpm"."contract" cascade;`);
    this.addSql(`drop table if exists "bpm"."product" cascade;`);
    this.addSql(`drop table if exists "bpm"."contract_item" cascade;`);
    this.addSql(`drop table if exists "bpm"."accrual" cascade;`);

    this.addSql(`alter table "bpm"."branch" drop constraint "branch_cr_process_id_business_partner_id_id_unique";`);
  }

}
