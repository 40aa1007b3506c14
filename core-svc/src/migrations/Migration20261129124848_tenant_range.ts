import { Migration } from '@mikro-orm/migrations';

export class Migration20261129124848_tenant_range extends Migration {

  override name = 'Migration20261129124848_tenant_range';

  override up(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "core"."access_token";`);

    this.addSql(`drop policy "tenant_wall" on "core"."corporation_contact";`);

    this.addSql(`drop policy "tenant_wall" on "core"."country";`);

    this.addSql(`drop policy "tenant_wall" on "core"."city";`);

    this.addSql(`drop policy "tenant_wall" on "core"."currency";`);

    this.addSql(`drop policy "tenant_wall" on "core"."security_group";`);

    this.addSql(`drop policy "tenant_wall" on "core"."identity_provider";`);

    this.addSql(`drop policy "tenant_wall" on "core"."core_import_error";`);

    this.addSql(`drop policy "tenant_wall" on "core"."core_import_run";`);

    this.addSql(`drop policy "tenant_wall" on "core"."license";`);

    this.addSql(`drop policy "tenant_wall" on "core"."license_history";`);

    this.addSql(`drop policy "tenant_wall" on "core"."core_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "core"."role_type";`);

    this.addSql(`drop policy "tenant_wall" on "core"."group_role";`);

    this.addSql(`drop policy "tenant_wall" on "core"."group_member";`);

    this.addSql(`drop policy "tenant_wall" on "core"."webhook_subscription";`);

    this.addSql(`drop policy "tenant_wall" on "core"."webhook_delivery";`);

    this.addSql(`create policy "tenant_wall" on "core"."access_token" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."corporation_contact" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."country" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."city" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."currency" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."security_group" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."identity_provider" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."core_import_error" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."core_import_run" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."license" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."license_history" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."core_outbox" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."role_type" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."group_role" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."group_member" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."webhook_subscription" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);

    this.addSql(`create policy "tenant_wall" on "core"."webhook_delivery" using (cr_process_id >= (nullif(current_setting('platform.tenant_from', true), ''))::bigint and cr_process_id <= (nullif(current_setting('platform.tenant_to', true), ''))::bigint);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop policy "tenant_wall" on "core"."access_token";`);

    this.addSql(`drop policy "tenant_wall" on "core"."city";`);

    this.addSql(`drop policy "tenant_wall" on "core"."core_import_error";`);

    this.addSql(`drop policy "tenant_wall" on "core"."core_import_run";`);

    this.addSql(`drop policy "tenant_wall" on "core"."core_outbox";`);

    this.addSql(`drop policy "tenant_wall" on "core"."corporation_contact";`);

    this.addSql(`drop policy "tenant_wall" on "core"."country";`);

    this.addSql(`drop policy "tenant_wall" on "core"."currency";`);

    this.addSql(`drop policy "tenant_wall" on "core"."group_member";`);

    this.addSql(`drop policy "tenant_wall" on "core"."group_role";`);

    this.addSql(`drop policy "tenant_wall" on "core"."identity_provider";`);

    this.addSql(`drop policy "tenant_wall" on "core"."license";`);

    this.addSql(`drop policy "tenant_wall" on "core"."license_history";`);

    this.addSql(`drop policy "tenant_wall" on "core"."role_type";`);

    this.addSql(`drop policy "tenant_wall" on "core"."security_group";`);

    this.addSql(`drop policy "tenant_wall" on "core"."webhook_delivery";`);

    this.addSql(`drop policy "tenant_wall" on "core"."webhook_subscription";`);

    this.addSql(`create policy "tenant_wall" on "core"."access_token" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."city" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."core_import_error" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."core_import_run" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."core_outbox" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."corporation_contact" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."country" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."currency" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."group_member" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."group_role" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."identity_provider" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."license" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."license_history" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."role_type" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."security_group" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."webhook_delivery" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);

    this.addSql(`create policy "tenant_wall" on "core"."webhook_subscription" to public using ((( SELECT (current_setting('platform.tenants'::text, true) = '*'::text)) OR (cr_process_id = ANY ((( SELECT
        CASE
            WHEN (current_setting('platform.tenants'::text, true) ~ '^[{][0-9,]*[}]\$'::text) THEN current_setting('platform.tenants'::text, true)
            ELSE '{}'::text
        END AS "case"))::bigint[]))));`);
  }

}
