import { Migration } from '@mikro-orm/migrations';

/** The service's outbox (libs/service-kit/src/events/outbox-entity.ts, docs/adr/0076-events-a-transactional-outbox.md). */
export class Migration20261127055942_outbox extends Migration {

  override name = 'Migration20261127055942_outbox';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."core_outbox" ("seq" bigserial primary key, "event_id" uuid not null, "type" varchar(100) not null, "cr_process_id" bigint not null, "entity" varchar(64) not null, "entity_key" varchar(255) not null, "version" int null, "actor" varchar(100) null, "occurred_at" timestamptz not null, "request_id" varchar(100) null, "changes" jsonb not null, "dispatched" boolean not null default false);`);
    this.addSql(`alter table "core"."core_outbox" add constraint "core_outbox_event_id_unique" unique ("event_id");`);
    this.addSql(`create index "core_outbox_record_index" on "core"."core_outbox" ("cr_process_id", "entity", "entity_key", "seq");`);
    this.addSql(`create index "core_outbox_pending_index" on "core"."core_outbox" ("seq") where not "dispatched";`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "core"."core_outbox" cascade;`);
  }

}
