import { Migration } from '@mikro-orm/migrations';

export class Migration20261123160726_same_tenant_references extends Migration {

  override name = 'Migration20261123160726_same_tenant_references';

  override up(): void | Promise<void> {
    this.addSql(`alter table "bpm"."branch" drop constraint "branch_business_partner_id_foreign";`);

    this.addSql(`alter table "bpm"."business_partner" add constraint "business_partner_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`alter table "bpm"."branch" add constraint "branch_business_partner_id_foreign" foreign key ("cr_process_id", "business_partner_id") references "bpm"."business_partner" ("cr_process_id", "id") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "bpm"."branch" drop constraint "branch_business_partner_id_foreign";`);

    this.addSql(`alter table "bpm"."branch" add constraint "branch_business_partner_id_foreign" foreign key ("business_partner_id") references "bpm"."business_partner" ("id") on update no action on delete no action;`);

    this.addSql(`alter table "bpm"."business_partner" drop constraint "business_partner_cr_process_id_id_unique";`);
  }

}
