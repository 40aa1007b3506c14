import { Migration } from '@mikro-orm/migrations';

export class Migration20261129124455_tenant_range extends Migration {

  override name = 'Migration20261129124455_tenant_range';

  override up(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "bpm"."business_partner_count";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."business_partner";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contract";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."branch";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contact";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_import_error";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_import_run";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."product";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contract_item";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."accrual";`);

    this.addSql(`create policy "tenant_wall" on "bpm"."business_partner_count" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."business_partner" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."contract" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."branch" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."contact" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_import_error" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_import_run" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_outbox" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."product" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."contract_item" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "bpm"."accrual" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "bpm"."accrual";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_import_error";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_import_run";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."bpm_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."branch";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."business_partner";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."business_partner_count";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contact";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contract";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."contract_item";`);

    this.addSql(`drop policy "tenant_wall" on "bpm"."product";`);

    this.addSql(`create policy "tenant_wall" on "bpm"."accrual" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_import_error" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_import_run" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."bpm_outbox" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."branch" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."business_partner" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."business_partner_count" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."contact" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."contract" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."contract_item" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "bpm"."product" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);
  }

}
