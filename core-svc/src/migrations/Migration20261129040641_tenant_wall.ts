import { Migration } from '@mikro-orm/migrations';

/**
 * Row-level security on every table with a tenant column, as the entities declare it
 * (libs/service-kit/src/db/tenant-wall.ts, docs/adr/0151-row-level-security-the-second-wall.md),
 * after the owner's views some of the policies read.
 */
export class Migration20261129040641_tenant_wall extends Migration {

  override name = 'Migration20261129040641_tenant_wall';

  override up(): void | Promise<void> {
    // the views the policies read, first
    this.addSql(`create view "core"."user_select_tenant" as select p.id as user_process_id, p.user_code, a.cr_process_id, a.account_no, a.account_name
    from core.user_process p
    join core.user_process_select s on s.user_process_id = p.id
    join core.account a on a.id = s.account_id;`);
    this.addSql(`create view "core"."account_key" as select a.id, a.account_no, a.cr_process_id from core.account a;`);
    this.addSql(`create view "core"."user_key" as select u.user_code, u.cr_process_id from core.user_info u;`);

    this.addSql(`alter table "core"."access_token" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."access_token" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."account" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."account" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]) or exists (select 1 from core.user_select_tenant m where m.user_code = (select current_setting('platform.user', true)) and m.cr_process_id = account.cr_process_id));`);
    this.addSql(`alter table "core"."corporation_contact" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."corporation_contact" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."country" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."country" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."city" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."city" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."currency" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."currency" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."exception_log" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."exception_log" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."security_group" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."security_group" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."identity_provider" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."identity_provider" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."license" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."license" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."license_history" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."license_history" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."core_outbox" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."core_outbox" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."role_type" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."role_type" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."group_role" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."group_role" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."session_log" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."session_log" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]) or user_code = (select current_setting('platform.user', true)));`);
    this.addSql(`alter table "core"."user_info" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."user_info" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]) or user_code = (select current_setting('platform.user', true)) or exists (select 1 from core.user_select_tenant m where m.user_code = user_info.user_code and ((select current_setting('platform.tenants', true) = '*') or m.cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]))));`);
    this.addSql(`alter table "core"."group_member" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."group_member" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."user_process" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."user_process" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]) or user_code = (select current_setting('platform.user', true)) or exists (select 1 from core.user_select_tenant m where m.user_code = user_process.user_code and ((select current_setting('platform.tenants', true) = '*') or m.cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]))));`);
    this.addSql(`alter table "core"."webhook_subscription" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."webhook_subscription" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
    this.addSql(`alter table "core"."webhook_delivery" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "core"."webhook_delivery" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "core"."access_token";`);
    this.addSql(`drop policy "tenant_wall" on "core"."account";`);
    this.addSql(`drop policy "tenant_wall" on "core"."city";`);
    this.addSql(`drop policy "tenant_wall" on "core"."core_outbox";`);
    this.addSql(`drop policy "tenant_wall" on "core"."corporation_contact";`);
    this.addSql(`drop policy "tenant_wall" on "core"."country";`);
    this.addSql(`drop policy "tenant_wall" on "core"."currency";`);
    this.addSql(`drop policy "tenant_wall" on "core"."exception_log";`);
    this.addSql(`drop policy "tenant_wall" on "core"."group_member";`);
    this.addSql(`drop policy "tenant_wall" on "core"."group_role";`);
    this.addSql(`drop policy "tenant_wall" on "core"."identity_provider";`);
    this.addSql(`drop policy "tenant_wall" on "core"."license";`);
    this.addSql(`drop policy "tenant_wall" on "core"."license_history";`);
    this.addSql(`drop policy "tenant_wall" on "core"."role_type";`);
    this.addSql(`drop policy "tenant_wall" on "core"."security_group";`);
    this.addSql(`drop policy "tenant_wall" on "core"."session_log";`);
    this.addSql(`drop policy "tenant_wall" on "core"."user_info";`);
    this.addSql(`drop policy "tenant_wall" on "core"."user_process";`);
    this.addSql(`drop policy "tenant_wall" on "core"."webhook_delivery";`);
    this.addSql(`drop policy "tenant_wall" on "core"."webhook_subscription";`);
    this.addSql(`alter table "core"."access_token" disable row level security;`);
    this.addSql(`alter table "core"."account" disable row level security;`);
    this.addSql(`alter table "core"."city" disable row level security;`);
    this.addSql(`alter table "core"."core_outbox" disable row level security;`);
    this.addSql(`alter table "core"."corporation_contact" disable row level security;`);
    this.addSql(`alter table "core"."country" disable row level security;`);
    this.addSql(`alter table "core"."currency" disable row level security;`);
    this.addSql(`alter table "core"."exception_log" disable row level security;`);
    this.addSql(`alter table "core"."group_member" disable row level security;`);
    this.addSql(`alter table "core"."group_role" disable row level security;`);
    this.addSql(`alter table "core"."identity_provider" disable row level security;`);
    this.addSql(`alter table "core"."license" disable row level security;`);
    this.addSql(`alter table "core"."license_history" disable row level security;`);
    this.addSql(`alter table "core"."role_type" disable row level security;`);
    this.addSql(`alter table "core"."security_group" disable row level security;`);
    this.addSql(`alter table "core"."session_log" disable row level security;`);
    this.addSql(`alter table "core"."user_info" disable row level security;`);
    this.addSql(`alter table "core"."user_process" disable row level security;`);
    this.addSql(`alter table "core"."webhook_delivery" disable row level security;`);
    this.addSql(`alter table "core"."webhook_subscription" disable row level security;`);

    // the views, once no policy reads them
    this.addSql(`drop view if exists "core"."account_key" cascade;`);
    this.addSql(`drop view if exists "core"."user_key" cascade;`);
    this.addSql(`drop view if exists "core"."user_select_tenant" cascade;`);
  }

}
