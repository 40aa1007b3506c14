import { Migration } from '@mikro-orm/migrations';

export class Migration20261126235642_city_within_country extends Migration {

  override name = 'Migration20261126235642_city_within_country';

  override up(): void | Promise<void> {
    this.addSql(`alter table "core"."city" add constraint "city_cr_process_id_country_id_id_unique" unique ("cr_process_id", "country_id", "id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."city" drop constraint "city_cr_process_id_country_id_id_unique";`);
  }

}
