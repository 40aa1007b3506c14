import { Migration } from '@mikro-orm/migrations';

/**
 * The service's idempotency keys (libs/service-kit/src/idempotency/idempotency-entity.ts,
 * docs/adr/0078-idempotent-requests.md), as migration:create wrote them.
 */
export class Migration20261127061938_idempotency extends Migration {

  override name = 'Migration20261127061938_idempotency';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."core_idempotency" ("owner" varchar(100) not null, "idempotency_key" varchar(255) not null, "fingerprint" varchar(64) not null, "answer" jsonb null, "created_at" timestamptz not null, primary key ("owner", "idempotency_key"));`);
    this.addSql(`create index "core_idempotency_created_at_index" on "core"."core_idempotency" ("created_at");`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."core_idempotency" cascade;`);
  }

}
