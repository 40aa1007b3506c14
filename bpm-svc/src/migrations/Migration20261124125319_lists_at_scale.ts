import { Migration } from '@mikro-orm/migrations';
import { ensureExtension, withExtensionSchema } from '@platform/service-kit/db/extension-sql.ts';

export class Migration20261124125319_lists_at_scale extends Migration {

  override name = 'Migration20261124125319_lists_at_scale';

  override up(): void | Promise<void> {
    this.addSql(`create table "bpm"."business_partner_count" ("cr_process_id" bigint not null, "row_count" bigint not null, primary key ("cr_process_id"));`);

    this.addSql(`create index "business_partner_cr_process_id_partner_name_id_index" on "bpm"."business_partner" ("cr_process_id", "partner_name", "id");`);
    this.addSql(`create index "business_partner_cr_process_id_partner_type_index" on "bpm"."business_partner" ("cr_process_id", "partner_type");`);
    this.addSql(`create index "business_partner_cr_process_id_created_at_index" on "bpm"."business_partner" ("cr_process_id", "created_at");`);
    // searchTerm's substring match (ILIKE '%term%') through trigram indexes; pg_trgm is a trusted
    // contrib extension (PostgreSQL 13+): the database owner may create it, superuser or not
    this.addSql(ensureExtension('pg_trgm'));
    this.addSql(withExtensionSchema('pg_trgm', `create index "business_partner_partner_code_trgm_index" on "bpm"."business_partner" using gin ("partner_code" @ext.gin_trgm_ops)`));
    this.addSql(withExtensionSchema('pg_trgm', `create index "business_partner_partner_name_trgm_index" on "bpm"."business_partner" using gin ("partner_name" @ext.gin_trgm_ops)`));
    this.addSql(`create or replace function "bpm"."business_partner_business_partner_count_insert_fn"() returns trigger as \$\$ begin insert into "bpm"."business_partner_count" as c (cr_process_id, row_count) select cr_process_id, count(*) from added group by cr_process_id on conflict (cr_process_id) do update set row_count = c.row_count + excluded.row_count; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "business_partner_count_insert" after insert on "bpm"."business_partner" referencing new table as added for each statement execute function "bpm"."business_partner_business_partner_count_insert_fn"();`);
    this.addSql(`create or replace function "bpm"."business_partner_business_partner_count_delete_fn"() returns trigger as \$\$ begin update "bpm"."business_partner_count" as c set row_count = c.row_count - d.n from (select cr_process_id, count(*) as n from removed group by cr_process_id) as d where c.cr_process_id = d.cr_process_id; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "business_partner_count_delete" after delete on "bpm"."business_partner" referencing old table as removed for each statement execute function "bpm"."business_partner_business_partner_count_delete_fn"();`);
    this.addSql(`create or replace function "bpm"."business_partner_business_partner_count_update_fn"() returns trigger as \$\$ begin update "bpm"."business_partner_count" as c set row_count = c.row_count + d.n from (select cr_process_id, sum(n) as n from (select cr_process_id, 1 as n from after_rows union all select cr_process_id, -1 from before_rows) as m group by cr_process_id having sum(n) < 0) as d where c.cr_process_id = d.cr_process_id; insert into "bpm"."business_partner_count" as c (cr_process_id, row_count) select cr_process_id, sum(n) from (select cr_process_id, 1 as n from after_rows union all select cr_process_id, -1 from before_rows) as m group by cr_process_id having sum(n) > 0 on conflict (cr_process_id) do update set row_count = c.row_count + excluded.row_count; return null; end; \$\$ language plpgsql;`);
    this.addSql(`create trigger "business_partner_count_update" after update on "bpm"."business_partner" referencing old table as before_rows new table as after_rows for each statement execute function "bpm"."business_partner_business_partner_count_update_fn"();`);

    this.addSql(`alter table "bpm"."business_partner_count" add constraint "business_partner_count_row_count_check" check (row_count >= 0);`);
    // the rows already there, counted once; creating the triggers above locked out concurrent writes until commit
    this.addSql(`insert into "bpm"."business_partner_count" (cr_process_id, row_count) select cr_process_id, count(*) from "bpm"."business_partner" group by cr_process_id;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "bpm"."business_partner_count" cascade;`);

    this.addSql(`drop index "bpm"."business_partner_cr_process_id_partner_name_id_index";`);
    this.addSql(`drop index "bpm"."business_partner_cr_process_id_partner_type_index";`);
    this.addSql(`drop index "bpm"."business_partner_cr_process_id_created_at_index";`);
    this.addSql(`drop index "bpm"."business_partner_partner_code_trgm_index";`);
    this.addSql(`drop index "bpm"."business_partner_partner_name_trgm_index";`);
    this.addSql(`drop trigger if exists "business_partner_count_insert" on "bpm"."business_partner";`);
    this.addSql(`drop function if exists "bpm"."business_partner_business_partner_count_insert_fn"();`);
    this.addSql(`drop trigger if exists "business_partner_count_delete" on "bpm"."business_partner";`);
    this.addSql(`drop function if exists "bpm"."business_partner_business_partner_count_delete_fn"();`);
    this.addSql(`drop trigger if exists "business_partner_count_update" on "bpm"."business_partner";`);
    this.addSql(`drop function if exists "bpm"."business_partner_business_partner_count_update_fn"();`);
  }

}
