import { Migration } from '@mikro-orm/migrations';

export class Migration20261123153129_live_access extends Migration {

  override name = 'Migration20261123153129_live_access';

  override up(): void | Promise<void> {
    this.addSql(`drop view if exists "core"."user_tenant_role" cascade;`);
    this.addSql(`create view "core"."user_tenant" as select p.user_code, a.cr_process_id, a.account_no, a.account_name
    from core.user_process p
    join core.user_process_select s on s.user_process_id = p.id
    join core.account a on a.id = s.account_id
    where p.status and a.status;`);

    this.addSql(`create view "core"."user_tenant_role" as select distinct m.user_code, g.cr_process_id, t.role_code
    from core.group_member m
    join core.security_group g on g.id = m.group_id and g.cr_process_id = m.cr_process_id
    join core.group_role r on r.group_id = g.id and r.cr_process_id = g.cr_process_id
    join core.role_type t on t.id = r.role_type_id and t.cr_process_id = g.cr_process_id
    where g.status and m.status and r.status and t.status;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop view if exists "core"."user_tenant" cascade;`);
    this.addSql(`drop view if exists "core"."user_tenant_role" cascade;`);
    this.addSql(`create view "core"."user_tenant_role" as SELECT DISTINCT m.user_code,
    g.cr_process_id,
    t.role_code
   FROM (((core.group_member m
     JOIN core.security_group g ON (((g.id = m.group_id) AND (g.cr_process_id = m.cr_process_id))))
     JOIN core.group_role r ON (((r.group_id = g.id) AND (r.cr_process_id = g.cr_process_id))))
     JOIN core.role_type t ON (((t.id = r.role_type_id) AND (t.cr_process_id = g.cr_process_id))))
  WHERE g.status;`);
  }

}
