import { Migration } from '@mikro-orm/migrations';

export class Migration20261124102247_share_download_slots extends Migration {

  override name = 'Migration20261124102247_share_download_slots';

  override up(): void | Promise<void> {
    this.addSql(`create table "dms"."dms_share_download_slot" ("id" bigserial primary key, "share_link_id" bigint not null, "lease_until" timestamptz not null, "started_at" timestamptz not null default now());`);
    this.addSql(`create index "dms_share_download_slot_share_link_id_index" on "dms"."dms_share_download_slot" ("share_link_id");`);

    this.addSql(`alter table "dms"."dms_share_download_slot" add constraint "dms_share_download_slot_share_link_id_foreign" foreign key ("share_link_id") references "dms"."dms_share_link" ("id") on delete cascade;`);
  }

  override down(): void | Promise<void> {
    this.addSql(`drop table if exists "dms"."dms_share_download_slot" cascade;`);
  }

}
