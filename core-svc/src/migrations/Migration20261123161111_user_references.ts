import { Migration } from '@mikro-orm/migrations';

export class Migration20261123161111_user_references extends Migration {

  override name = 'Migration20261123161111_user_references';

  override up(): void | Promise<void> {
    this.addSql(`alter table "core"."group_member" add constraint "group_member_user_code_foreign" foreign key ("user_code") references "core"."user_info" ("user_code") on update no action on delete no action;`);
    this.addSql(`create index "group_member_user_code_index" on "core"."group_member" ("user_code");`);

    this.addSql(`alter table "core"."user_process" add constraint "user_process_user_code_foreign" foreign key ("user_code") references "core"."user_info" ("user_code") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."group_member" drop constraint "group_member_user_code_foreign";`);

    this.addSql(`alter table "core"."user_process" drop constraint "user_process_user_code_foreign";`);

    this.addSql(`drop index "core"."group_member_user_code_index";`);
  }

}
