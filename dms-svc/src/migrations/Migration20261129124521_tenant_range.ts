import { Migration } from '@mikro-orm/migrations';

export class Migration20261129124521_tenant_range extends Migration {

  override name = 'Migration20261129124521_tenant_range';

  override up(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "dms"."dms_account_config";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_audit_log";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_category";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_file";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_retention_policy";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_share_link";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_tus_upload";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_import_error";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_import_run";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_outbox";`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_account_config" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_audit_log" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_category" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_file" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_retention_policy" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_share_link" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_tus_upload" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_import_error" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_import_run" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_outbox" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "dms"."dms_account_config";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_audit_log";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_category";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_file";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_import_error";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_import_run";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_retention_policy";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_share_link";`);

    this.addSql(`drop policy "tenant_wall" on "dms"."dms_tus_upload";`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_account_config" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_audit_log" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_category" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_file" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_import_error" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_import_run" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_outbox" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_retention_policy" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_share_link" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "dms"."dms_tus_upload" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);
  }

}
