import { Migration } from '@mikro-orm/migrations';

export class Migration20261129061000_webhook_delivery_fillfactor extends Migration {

  override name = 'Migration20261129061000_webhook_delivery_fillfactor';

  override up(): void | Promise<void> {
    // room on each page for a delivery's lease (leased_until, in no index) to be written as a
    // heap-only update, without a new entry in each of the table's six indexes
    this.addSql(`alter table "core"."webhook_delivery" set (fillfactor = 75);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."webhook_delivery" reset (fillfactor);`);
  }

}
