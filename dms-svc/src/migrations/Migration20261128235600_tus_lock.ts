import { Migration } from '@mikro-orm/migrations';

/**
 * The lease rows that lock a resumable upload while a request writes it (dms-svc/src/db.ts
 * DmsTusLockEntity, docs/adr/0146-through-a-transaction-pooler.md), as migration:create wrote them.
 */
export class Migration20261128235600_tus_lock extends Migration {

  override name = 'Migration20261128235600_tus_lock';

  override up(): void | Promise<void> {
    this.addSql(`create table "dms"."dms_tus_lock" ("id" varchar(32) not null, "holder" uuid not null, "expires_at" timestamptz not null, primary key ("id"));`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dms"."dms_tus_lock" cascade;`);
  }

}
