import { Migration } from '@mikro-orm/migrations';

export class Migration20261123170125_file_references_legal_hold extends Migration {

  override name = 'Migration20261123170125_file_references_legal_hold';

  override up(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_file" add "legal_hold" boolean not null default false;`);
    this.addSql(`alter table "dms"."dms_file" add constraint "dms_file_category_id_foreign" foreign key ("cr_process_id", "category_id") references "dms"."dms_category" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`create index "dms_file_category_id_index" on "dms"."dms_file" ("category_id");`);
    this.addSql(`alter table "dms"."dms_file" add constraint "dms_file_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`alter table "dms"."dms_share_link" add constraint "dms_share_link_file_id_foreign" foreign key ("cr_process_id", "file_id") references "dms"."dms_file" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`create index "dms_share_link_file_id_index" on "dms"."dms_share_link" ("file_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_file" drop constraint "dms_file_category_id_foreign";`);

    this.addSql(`alter table "dms"."dms_share_link" drop constraint "dms_share_link_file_id_foreign";`);

    this.addSql(`drop index "dms"."dms_file_category_id_index";`);
    this.addSql(`alter table "dms"."dms_file" drop constraint "dms_file_cr_process_id_id_unique";`);
    this.addSql(`alter table "dms"."dms_file" drop column "legal_hold";`);

    this.addSql(`drop index "dms"."dms_share_link_file_id_index";`);
  }

}
