import { Migration } from '@mikro-orm/migrations';

export class Migration20261128143421_search_prefix extends Migration {

  override name = 'Migration20261128143421_search_prefix';

  override up(): void | Promise<void> {
    this.addSql(`create index "business_partner_cr_process_id_partner_code_prefix_index" on "bpm"."business_partner" ("cr_process_id", lower(translate("partner_code", 'İIı', 'iii')) text_pattern_ops) include ("partner_code");`);
    this.addSql(`create index "business_partner_cr_process_id_partner_name_prefix_index" on "bpm"."business_partner" ("cr_process_id", lower(translate("partner_name", 'İIı', 'iii')) text_pattern_ops) include ("partner_name");`);

    this.addSql(`create index "contract_cr_process_id_contract_no_prefix_index" on "bpm"."contract" ("cr_process_id", lower(translate("contract_no", 'İIı', 'iii')) text_pattern_ops) include ("contract_no");`);

    this.addSql(`create index "product_cr_process_id_product_code_prefix_index" on "bpm"."product" ("cr_process_id", lower(translate("product_code", 'İIı', 'iii')) text_pattern_ops) include ("product_code");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "bpm"."business_partner_cr_process_id_partner_code_prefix_index";`);
    this.addSql(`drop index "bpm"."business_partner_cr_process_id_partner_name_prefix_index";`);

    this.addSql(`drop index "bpm"."contract_cr_process_id_contract_no_prefix_index";`);

    this.addSql(`drop index "bpm"."product_cr_process_id_product_code_prefix_index";`);
  }

}
