import { Migration } from '@mikro-orm/migrations';
import { withExtensionSchema } from '@platform/service-kit/db/extension-sql.ts';

export class Migration20261128150613_list_text_match extends Migration {

  override name = 'Migration20261128150613_list_text_match';

  override up(): void | Promise<void> {
    this.addSql(`create index "business_partner_cr_process_id_tax_number_prefix_index" on "bpm"."business_partner" ("cr_process_id", lower(translate("tax_number", 'İIı', 'iii')) text_pattern_ops) include ("tax_number");`);

    this.addSql(withExtensionSchema('pg_trgm', `create index "branch_branch_name_trgm_index" on "bpm"."branch" using gin ("branch_name" @ext.gin_trgm_ops)`));
    this.addSql(`create index "branch_cr_process_id_branch_code_prefix_index" on "bpm"."branch" ("cr_process_id", lower(translate("branch_code", 'İIı', 'iii')) text_pattern_ops) include ("branch_code");`);

    this.addSql(withExtensionSchema('pg_trgm', `create index "contact_last_name_trgm_index" on "bpm"."contact" using gin ("last_name" @ext.gin_trgm_ops)`));
    this.addSql(withExtensionSchema('pg_trgm', `create index "contact_first_name_trgm_index" on "bpm"."contact" using gin ("first_name" @ext.gin_trgm_ops)`));
    this.addSql(`create index "contact_cr_process_id_email_prefix_index" on "bpm"."contact" ("cr_process_id", lower(translate("email", 'İIı', 'iii')) text_pattern_ops) include ("email");`);

    this.addSql(withExtensionSchema('pg_trgm', `create index "product_product_name_trgm_index" on "bpm"."product" using gin ("product_name" @ext.gin_trgm_ops)`));

    this.addSql(`create index "accrual_cr_process_id_invoice_no_prefix_index" on "bpm"."accrual" ("cr_process_id", lower(translate("invoice_no", 'İIı', 'iii')) text_pattern_ops) include ("invoice_no");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "bpm"."accrual_cr_process_id_invoice_no_prefix_index";`);

    this.addSql(`drop index "bpm"."branch_branch_name_trgm_index";`);
    this.addSql(`drop index "bpm"."branch_cr_process_id_branch_code_prefix_index";`);

    this.addSql(`drop index "bpm"."business_partner_cr_process_id_tax_number_prefix_index";`);

    this.addSql(`drop index "bpm"."contact_last_name_trgm_index";`);
    this.addSql(`drop index "bpm"."contact_first_name_trgm_index";`);
    this.addSql(`drop index "bpm"."contact_cr_process_id_email_prefix_index";`);

    this.addSql(`drop index "bpm"."product_product_name_trgm_index";`);
  }

}
