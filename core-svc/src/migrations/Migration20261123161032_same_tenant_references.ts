import { Migration } from '@mikro-orm/migrations';

export class Migration20261123161032_same_tenant_references extends Migration {

  override name = 'Migration20261123161032_same_tenant_references';

  override up(): void | Promise<void> {
    this.addSql(`alter table "core"."group_member" drop constraint "group_member_group_id_foreign";`);

    this.addSql(`alter table "core"."group_role" drop constraint "group_role_group_id_foreign";`);
    this.addSql(`alter table "core"."group_role" drop constraint "group_role_role_type_id_foreign";`);

    this.addSql(`alter table "core"."security_group" add constraint "security_group_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`alter table "core"."group_member" add constraint "group_member_group_id_foreign" foreign key ("cr_process_id", "group_id") references "core"."security_group" ("cr_process_id", "id") on update no action on delete no action;`);

    this.addSql(`alter table "core"."role_type" add constraint "role_type_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`alter table "core"."group_role" add constraint "group_role_group_id_foreign" foreign key ("cr_process_id", "group_id") references "core"."security_group" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "core"."group_role" add constraint "group_role_role_type_id_foreign" foreign key ("cr_process_id", "role_type_id") references "core"."role_type" ("cr_process_id", "id") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."group_member" drop constraint "group_member_group_id_foreign";`);

    this.addSql(`alter table "core"."group_role" drop constraint "group_role_group_id_foreign";`);
    this.addSql(`alter table "core"."group_role" drop constraint "group_role_role_type_id_foreign";`);

    this.addSql(`alter table "core"."group_member" add constraint "group_member_group_id_foreign" foreign key ("group_id") references "core"."security_group" ("id") on update no action on delete no action;`);

    this.addSql(`alter table "core"."group_role" add constraint "group_role_group_id_foreign" foreign key ("group_id") references "core"."security_group" ("id") on update no action on delete no action;`);
    this.addSql(`alter table "core"."group_role" add constraint "group_role_role_type_id_foreign" foreign key ("role_type_id") references "core"."role_type" ("id") on update no action on delete no action;`);

    this.addSql(`alter table "core"."role_type" drop constraint "role_type_cr_process_id_id_unique";`);

    this.addSql(`alter table "core"."security_group" drop constraint "security_group_cr_process_id_id_unique";`);
  }

}
