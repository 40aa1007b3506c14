import { Migration } from '@mikro-orm/migrations';

export class Migration20261122004315_groups extends Migration {

  override name = 'Migration20261122004315_groups';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."security_group" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "group_name" varchar(255) not null, "description" varchar(255) null);`);
    this.addSql(`create index "security_group_cr_process_id_index" on "core"."security_group" ("cr_process_id");`);
    this.addSql(`alter table "core"."security_group" add constraint "security_group_cr_process_id_group_name_unique" unique ("cr_process_id", "group_name");`);

    this.addSql(`create table "core"."group_member" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "group_id" bigint not null, "user_code" varchar(64) not null);`);
    this.addSql(`create index "group_member_group_id_index" on "core"."group_member" ("group_id");`);
    this.addSql(`create index "group_member_cr_process_id_index" on "core"."group_member" ("cr_process_id");`);
    this.addSql(`alter table "core"."group_member" add constraint "group_member_cr_process_id_group_id_user_code_unique" unique ("cr_process_id", "group_id", "user_code");`);

    this.addSql(`create table "core"."role_type" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "role_code" varchar(64) not null, "role_name" varchar(255) not null, "description" varchar(255) null);`);
    this.addSql(`create index "role_type_cr_process_id_index" on "core"."role_type" ("cr_process_id");`);
    this.addSql(`alter table "core"."role_type" add constraint "role_type_cr_process_id_role_code_unique" unique ("cr_process_id", "role_code");`);

    this.addSql(`create table "core"."group_role" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "group_id" bigint not null, "role_type_id" bigint not null);`);
    this.addSql(`create index "group_role_group_id_index" on "core"."group_role" ("group_id");`);
    this.addSql(`create index "group_role_role_type_id_index" on "core"."group_role" ("role_type_id");`);
    this.addSql(`create index "group_role_cr_process_id_index" on "core"."group_role" ("cr_process_id");`);
    this.addSql(`alter table "core"."group_role" add constraint "group_role_cr_process_id_group_id_role_type_id_unique" unique ("cr_process_id", "group_id", "role_type_id");`);

    this.addSql(`alter table "core"."group_member" add constraint "group_member_group_id_foreign" foreign key ("group_id") references "core"."security_group" ("id") on update no action on delete no action;`);

    this.addSql(`alter table "core"."group_role" add constraint "group_role_group_id_foreign" foreign key ("group_id") references "core"."security_group" ("id") on update no action on delete no action;`);
    this.addSql(`alter table "core"."group_role" add constraint "group_role_role_type_id_foreign" foreign key ("role_type_id") references "core"."role_type" ("id") on update no action on delete no action;`);

    this.addSql(`create view "core"."user_tenant_role" as select distinct m.user_code, g.cr_process_id, t.role_code
    from core.group_member m
    join core.security_group g on g.id = m.group_id and g.cr_process_id = m.cr_process_id
    join core.group_role r on r.group_id = g.id and r.cr_process_id = g.cr_process_id
    join core.role_type t on t.id = r.role_type_id and t.cr_process_id = g.cr_process_id
    where g.status;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop view if exists "core"."user_tenant_role" cascade;`);
    this.addSql(`alter table "core"."group_member" drop constraint "group_member_group_id_foreign";`);
    this.addSql(`alter table "core"."group_role" drop constraint "group_role_group_id_foreign";`);
    this.addSql(`alter table "core"."group_role" drop constraint "group_role_role_type_id_foreign";`);

    this.addSql(`drop table if exists "core"."security_group" cascade;`);
    this.addSql(`drop table if exists "core"."group_member" cascade;`);
    this.addSql(`drop table if exists "core"."role_type" cascade;`);
    this.addSql(`drop table if exists "core"."group_role" cascade;`);
  }

}
