import { Migration } from '@mikro-orm/migrations';

export class Migration20261128150624_list_text_match extends Migration {

  override name = 'Migration20261128150624_list_text_match';

  override up(): void | Promise<void> {
    this.addSql(`create index "dms_category_cr_process_id_category_name_prefix_index" on "dms"."dms_category" ("cr_process_id", lower(translate("category_name", 'İIı', 'iii')) text_pattern_ops) include ("category_name");`);

    this.addSql(`create index "dms_file_cr_process_id_original_file_name_prefix_index" on "dms"."dms_file" ("cr_process_id", lower(translate("original_file_name", 'İIı', 'iii')) text_pattern_ops) include ("original_file_name");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "dms"."dms_category_cr_process_id_category_name_prefix_index";`);

    this.addSql(`drop index "dms"."dms_file_cr_process_id_original_file_name_prefix_index";`);
  }

}
