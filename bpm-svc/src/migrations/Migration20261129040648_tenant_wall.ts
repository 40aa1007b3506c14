import { Migration } from '@mikro-orm/migrations';

export class Migration20261129040648_tenant_wall extends Migration {

  override name = 'Migration20261129040648_tenant_wall';

  override up(): void | Promise<void> {
    this.addSql(`alter table "bpm"."business_partner_count" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."business_partner_count" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."business_partner" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."business_partner" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."contract" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."contract" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."branch" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."branch" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."contact" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."contact" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."bpm_outbox" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_outbox" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."product" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."product" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."contract_item" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."contract_item" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);

    this.addSql(`alter table "bpm"."accrual" enable row level security;`);
    this.addSql(`create policy "tenant_wall" on "bpm"."accrual" using ((select current_setting('platform.tenants', true) = '*') or cr_process_id = any ((select case when current_setting('platform.tenants', true) ~ '^[{][0-9,]*[}]\$' then current_setting('platform.tenants', true) else '{}' end as "case")::bigint[]));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "bpm"."accrual";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."branch";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."business_partner";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."business_partner_count";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contact";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contract";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contract_item";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."product";`);

    this.addSql(`alter table "bpm"."accrual" disable row level security;`);

    this.addSql(`alter table "bpm"."bpm_outbox" disable row level security;`);

    this.addSql(`alter table "bpm"."branch" disable row level security;`);

    this.addSql(`alter table "bpm"."business_partner" disable row level security;`);

    this.addSql(`alter table "bpm"."business_partner_count" disable row level security;`);

    this.addSql(`alter table "bpm"."contact" disable row level security;`);

    this.addSql(`alter table "bpm"."contract" disable row level security;`);

    this.addSql(`alter table "bpm"."contract_item" disable row level security;`);

    this.addSql(`alter table "bpm"."product" disable row level security;`);
  }

}
