import { Migration } from '@mikro-orm/migrations';

export class Migration20261129040649_tenant_wall extends Migration {

  override name = 'Migration20261129040649_tenant_wall';

  override up(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_account_config" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_account_config" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_audit_log" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_audit_log" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_category" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_category" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_file" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_file" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_retention_policy" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_retention_policy" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_share_link" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_share_link" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_tus_upload" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_tus_upload" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "dms"."dms_outbox" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "dms"."dms_outbox" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "dms"."dms_account_config";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_audit_log";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_category";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_file";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_retention_policy";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_share_link";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_tus_upload";`);

    this.addSql(`alter table "dms"."dms_account_config" disable row level security;`);

    this.addSql(`alter table "dms"."dms_audit_log" disable row level security;`);

    this.addSql(`alter table "dms"."dms_category" disable row level security;`);

    this.addSql(`alter table "dms"."dms_file" disable row level security;`);

    this.addSql(`alter table "dms"."dms_outbox" disable row level security;`);

    this.addSql(`alter table "dms"."dms_retention_policy" disable row level security;`);

    this.addSql(`alter table "dms"."dms_share_link" disable row level security;`);

    this.addSql(`alter table "dms"."dms_tus_upload" disable row level security;`);
  }

}
