import { Migration } from '@mikro-orm/migrations';

export class Migration20261128085515_webhook_owner extends Migration {

  override name = 'Migration20261128085515_webhook_owner';

  override up(): void | Promise<void> {
    this.addSql(`alter table "core"."webhook_subscription" add "owner" varchar(64) null;`);
    // a subscription made before owners were recorded belongs to the user who created it
    this.addSql(`update "core"."webhook_subscription" set "owner" = "created_by";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."webhook_subscription" drop column "owner";`);
  }

}
