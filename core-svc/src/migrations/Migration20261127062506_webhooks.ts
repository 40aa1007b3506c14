import { Migration } from '@mikro-orm/migrations';

export class Migration20261127062506_webhooks extends Migration {

  override name = 'Migration20261127062506_webhooks';

  override up(): void | Promise<void> {
    this.addSql(`create table "core"."webhook_subscription" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "url" varchar(2000) not null, "description" varchar(1000) null, "disabled_at" timestamptz null, "disabled_reason" varchar(1000) null, "event_type_list" text not null, "signing_secret" varchar(100) not null, "failing_since" timestamptz null);`);
    this.addSql(`create index "webhook_subscription_cr_process_id_index" on "core"."webhook_subscription" ("cr_process_id");`);
    this.addSql(`alter table "core"."webhook_subscription" add constraint "webhook_subscription_cr_process_id_id_unique" unique ("cr_process_id", "id");`);

    this.addSql(`create table "core"."webhook_delivery" ("id" bigserial primary key, "version" int not null default 0, "cr_process_id" bigint not null, "status" boolean not null default true, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by" varchar(255) null, "updated_by" varchar(255) null, "subscription_id" bigint not null, "event_id" varchar(36) not null, "event_type" varchar(100) not null, "entity" varchar(64) not null, "entity_key" varchar(255) not null, "delivery_status" varchar(32) not null default 'PENDING', "attempts" int not null default 0, "last_attempt_at" timestamptz null, "next_attempt_at" timestamptz null, "last_status_code" int null, "last_latency_ms" int null, "last_error" varchar(1000) null, "response_excerpt" text null, "delivered_at" timestamptz null, "source_schema" varchar(8) not null, "source_seq" bigint not null, "leased_until" timestamptz null);`);
    this.addSql(`create index "webhook_delivery_subscription_id_index" on "core"."webhook_delivery" ("subscription_id");`);
    this.addSql(`create index "webhook_delivery_cr_process_id_index" on "core"."webhook_delivery" ("cr_process_id");`);
    this.addSql(`create index "webhook_delivery_due_index" on "core"."webhook_delivery" ("next_attempt_at") where "delivery_status" = 'PENDING';`);
    this.addSql(`create index "webhook_delivery_record_index" on "core"."webhook_delivery" ("subscription_id", "entity", "entity_key", "source_seq") where "delivery_status" = 'PENDING';`);
    this.addSql(`alter table "core"."webhook_delivery" add constraint "webhook_delivery_cr_process_id_subscription_id_event_id_unique" unique ("cr_process_id", "subscription_id", "event_id");`);

    this.addSql(`alter table "core"."webhook_delivery" add constraint "webhook_delivery_subscription_id_foreign" foreign key ("cr_process_id", "subscription_id") references "core"."webhook_subscription" ("cr_process_id", "id") on update no action on delete no action;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "core"."webhook_delivery" drop constraint "webhook_delivery_subscription_id_foreign";`);

    this.addSql(`drop table if exists "core"."webhook_subscription" cascade;`);
    this.addSql(`drop table if exists "core"."webhook_delivery" cascade;`);
  }

}
