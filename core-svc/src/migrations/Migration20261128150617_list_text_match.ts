import { Migration } from '@mikro-orm/migrations';

export class Migration20261128150617_list_text_match extends Migration {

  override name = 'Migration20261128150617_list_text_match';

  override up(): void | Promise<void> {
    this.addSql(`create index "account_cr_process_id_account_no_prefix_index" on "core"."account" ("cr_process_id", lower(translate("account_no", 'İIı', 'iii')) text_pattern_ops) include ("account_no");`);
    this.addSql(`create index "account_cr_process_id_account_name_prefix_index" on "core"."account" ("cr_process_id", lower(translate("account_name", 'İIı', 'iii')) text_pattern_ops) include ("account_name");`);
    this.addSql(`create index "account_cr_process_id_tax_number_prefix_index" on "core"."account" ("cr_process_id", lower(translate("tax_number", 'İIı', 'iii')) text_pattern_ops) include ("tax_number");`);

    this.addSql(`create index "corporation_contact_cr_process_id_full_name_prefix_index" on "core"."corporation_contact" ("cr_process_id", lower(translate("full_name", 'İIı', 'iii')) text_pattern_ops) include ("full_name");`);
    this.addSql(`create index "corporation_contact_cr_process_id_email_prefix_index" on "core"."corporation_contact" ("cr_process_id", lower(translate("email", 'İIı', 'iii')) text_pattern_ops) include ("email");`);

    this.addSql(`create index "country_cr_process_id_code_prefix_index" on "core"."country" ("cr_process_id", lower(translate("code", 'İIı', 'iii')) text_pattern_ops) include ("code");`);
    this.addSql(`create index "country_cr_process_id_name_prefix_index" on "core"."country" ("cr_process_id", lower(translate("name", 'İIı', 'iii')) text_pattern_ops) include ("name");`);

    this.addSql(`create index "city_cr_process_id_code_prefix_index" on "core"."city" ("cr_process_id", lower(translate("code", 'İIı', 'iii')) text_pattern_ops) include ("code");`);
    this.addSql(`create index "city_cr_process_id_name_prefix_index" on "core"."city" ("cr_process_id", lower(translate("name", 'İIı', 'iii')) text_pattern_ops) include ("name");`);

    this.addSql(`create index "currency_cr_process_id_code_prefix_index" on "core"."currency" ("cr_process_id", lower(translate("code", 'İIı', 'iii')) text_pattern_ops) include ("code");`);
    this.addSql(`create index "currency_cr_process_id_name_prefix_index" on "core"."currency" ("cr_process_id", lower(translate("name", 'İIı', 'iii')) text_pattern_ops) include ("name");`);

    this.addSql(`create index "security_group_cr_process_id_group_name_prefix_index" on "core"."security_group" ("cr_process_id", lower(translate("group_name", 'İIı', 'iii')) text_pattern_ops) include ("group_name");`);

    this.addSql(`create index "license_cr_process_id_license_key_prefix_index" on "core"."license" ("cr_process_id", lower(translate("license_key", 'İIı', 'iii')) text_pattern_ops) include ("license_key");`);

    this.addSql(`create index "role_type_cr_process_id_role_code_prefix_index" on "core"."role_type" ("cr_process_id", lower(translate("role_code", 'İIı', 'iii')) text_pattern_ops) include ("role_code");`);
    this.addSql(`create index "role_type_cr_process_id_role_name_prefix_index" on "core"."role_type" ("cr_process_id", lower(translate("role_name", 'İIı', 'iii')) text_pattern_ops) include ("role_name");`);

    this.addSql(`create index "user_info_cr_process_id_user_code_prefix_index" on "core"."user_info" ("cr_process_id", lower(translate("user_code", 'İIı', 'iii')) text_pattern_ops) include ("user_code");`);
    this.addSql(`create index "user_info_cr_process_id_email_prefix_index" on "core"."user_info" ("cr_process_id", lower(translate("email", 'İIı', 'iii')) text_pattern_ops) include ("email");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "core"."account_cr_process_id_account_no_prefix_index";`);
    this.addSql(`drop index "core"."account_cr_process_id_account_name_prefix_index";`);
    this.addSql(`drop index "core"."account_cr_process_id_tax_number_prefix_index";`);

    this.addSql(`drop index "core"."city_cr_process_id_code_prefix_index";`);
    this.addSql(`drop index "core"."city_cr_process_id_name_prefix_index";`);

    this.addSql(`drop index "core"."corporation_contact_cr_process_id_full_name_prefix_index";`);
    this.addSql(`drop index "core"."corporation_contact_cr_process_id_email_prefix_index";`);

    this.addSql(`drop index "core"."country_cr_process_id_code_prefix_index";`);
    this.addSql(`drop index "core"."country_cr_process_id_name_prefix_index";`);

    this.addSql(`drop index "core"."currency_cr_process_id_code_prefix_index";`);
    this.addSql(`drop index "core"."currency_cr_process_id_name_prefix_index";`);

    this.addSql(`drop index "core"."license_cr_process_id_license_key_prefix_index";`);

    this.addSql(`drop index "core"."role_type_cr_process_id_role_code_prefix_index";`);
    this.addSql(`drop index "core"."role_type_cr_process_id_role_name_prefix_index";`);

    this.addSql(`drop index "core"."security_group_cr_process_id_group_name_prefix_index";`);

    this.addSql(`drop index "core"."user_info_cr_process_id_user_code_prefix_index";`);
    this.addSql(`drop index "core"."user_info_cr_process_id_email_prefix_index";`);
  }

}
