import { Migration } from '@mikro-orm/migrations';

export class Migration20261124105550_exception_request_id extends Migration {

  override name = 'Migration20261124105550_exception_request_id';

  override up(): void | Promise<void> {
    this.addSql(`alter table "core"."exception_log" add "request_id" varchar(128) null;`);
    this.addSql(`create index "exception_log_request_id_index" on "core"."exception_log" ("request_id");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop index "core"."exception_log_request_id_index";`);
    this.addSql(`alter table "core"."exception_log" drop column "request_id";`);
  }

}
