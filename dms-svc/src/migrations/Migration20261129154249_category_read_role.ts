import { Migration } from '@mikro-orm/migrations';

export class Migration20261129154249_category_read_role extends Migration {

  override name = 'Migration20261129154249_category_read_role';

  override up(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_category" add "read_role" varchar(100) null;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_category" drop column "read_role";`);
  }

}
