import { Migration } from '@mikro-orm/migrations';

export class Migration20261124103019_stored_file_name_unique extends Migration {

  override name = 'Migration20261124103019_stored_file_name_unique';

  override up(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_file" add constraint "dms_file_stored_file_name_unique" unique ("stored_file_name");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "dms"."dms_file" drop constraint "dms_file_stored_file_name_unique";`);
  }

}
