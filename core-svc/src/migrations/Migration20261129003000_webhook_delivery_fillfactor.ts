import { Migration } from '@mikro-orm/migrations';

/**
 * The delivery table keeps 30 % of each page free (docs/adr/0080-webhook-delivery-fan-out-queue.md):
 * a claim's lease, a column of no index, is then a heap-only update of its row, not a new version in
 * each of the table's indexes. Rows written before keep their pages until they are rewritten.
 */
export class Migration20261129003000_webhook_delivery_fillfactor extends Migration {

  override name = 'Migration20261129003000_webhook_delivery_fillfactor';

  override up(): void | Promise<void> {
    this.addSql(`alter table "core"."webhook_delivery" set (fillfactor = 70);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."webhook_delivery" reset (fillfactor);`);
  }

}
