import { Migration } from '@mikro-orm/migrations';

export class Migration20261128084611_webhook_tenant_due extends Migration {

  override name = 'Migration20261128084611_webhook_tenant_due';

  override up(): void | Promise<void> {
    this.addSql(`drop index "core"."webhook_delivery_due_index";`);
    this.addSql(`create index "webhook_delivery_tenant_due_index" on "core"."webhook_delivery" ("cr_process_id", "next_attempt_at", "source_seq") where "delivery_status" = 'PENDING';`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "core"."webhook_delivery_tenant_due_index";`);
    this.addSql(`create index "webhook_delivery_due_index" on "core"."webhook_delivery" ("next_attempt_at") where (delivery_status)::text = 'PENDING'::text;`);
  }

}
