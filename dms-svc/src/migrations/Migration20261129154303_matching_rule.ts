import { Migration } from '@mikro-orm/migrations';

/**
 * A tenant's matching rules (libs/contracts/src/dms/dms-matching-rule.ts,
 * docs/adr/0161-matching-rules-judged-in-sql.md), as migration:create wrote them: the rule's
 * category is a category of its tenant (a key over both), and deleting a category a rule names is
 * refused.
 */
export class Migration20261129154303_matching_rule extends Migration {

  override name = 'Migration20261129154303_matching_rule';

  override up(): void | Promise<void> {
    this.addSql(`create table "dms"."dms_matching_rule" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "rule_name" varchar(255) not null, "match_type" varchar(32) not null, "pattern" text not null, "category_id" bigint not null, "rule_order" int not null default 100);`);
    this.addSql(`create index "dms_matching_rule_category_id_index" on "dms"."dms_matching_rule" ("category_id");`);
    this.addSql(`create index "dms_matching_rule_cr_process_id_index" on "dms"."dms_matching_rule" ("cr_process_id");`);
    this.addSql(`alter table "dms"."dms_matching_rule" add constraint "dms_matching_rule_cr_process_id_rule_name_unique" unique ("cr_process_id", "rule_name");`);

    this.addSql(`alter table "dms"."dms_matching_rule" add constraint "dms_matching_rule_category_id_foreign" foreign key ("cr_process_id", "category_id") references "dms"."dms_category" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "dms"."dms_matching_rule" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_matching_rule" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dms"."dms_matching_rule" cascade;`);
  }

}
