import { Migration } from '@mikro-orm/migrations';

export class Migration20261126235817_partner_places extends Migration {

  override name = 'Migration20261126235817_partner_places';

  override up(): void | Promise<void> {
    // The keys cross into core's schema: core's migrations (its city_within_country) come first, and
    // partners that name no country or city of their tenant must be corrected first
    // (docs/adr/0065-keys-across-schemas.md); either is said here rather than by the failing statement.
    this.addSql(`do $$
begin
  if not exists (select 1 from pg_constraint c join pg_namespace n on n.oid = c.connamespace
      where n.nspname = 'core' and c.conname = 'city_cr_process_id_country_id_id_unique') then
    raise exception 'core''s migrations must be applied before bpm''s (npm run migrate -- up core)';
  end if;
  if exists (select 1 from "bpm"."business_partner" p where p.country_id is not null
      and not exists (select 1 from "core"."country" c where c.cr_process_id = p.cr_process_id and c.id = p.country_id)) then
    raise exception 'business partners name a country that is not of their tenant; correct their country_id first (docs/adr/0065-keys-across-schemas.md)';
  end if;
  if exists (select 1 from "bpm"."business_partner" p where p.city_id is not null
      and not exists (select 1 from "core"."city" c where c.cr_process_id = p.cr_process_id and c.country_id = p.country_id and c.id = p.city_id)) then
    raise exception 'business partners name a city that is not of their country and tenant; correct their city_id first (docs/adr/0065-keys-across-schemas.md)';
  end if;
end $$;`);
    this.addSql(`alter table "bpm"."business_partner" add constraint "business_partner_country_id_foreign" foreign key ("cr_process_id", "country_id") references "core"."country" ("cr_process_id", "id") on update no action on delete no action;`);
    this.addSql(`alter table "bpm"."business_partner" add constraint "business_partner_city_id_foreign" foreign key ("cr_process_id", "country_id", "city_id") references "core"."city" ("cr_process_id", "country_id", "id") on update no action on delete no action;`);
    this.addSql(`create index "business_partner_country_id_index" on "bpm"."business_partner" ("country_id");`);
    this.addSql(`create index "business_partner_city_id_index" on "bpm"."business_partner" ("city_id");`);
    this.addSql(`alter table "bpm"."business_partner" add constraint "business_partner_city_id_within" check (city_id is null or country_id is not null);`);
  }

  override down(): void | Promise<void> {
    this.addSql(`alter table "bpm"."business_partner" drop constraint "business_partner_country_id_foreign";`);
    this.addSql(`alter table "bpm"."business_partner" drop constraint "business_partner_city_id_foreign";`);

    this.addSql(`drop index "bpm"."business_partner_country_id_index";`);
    this.addSql(`drop index "bpm"."business_partner_city_id_index";`);
    this.addSql(`alter table "bpm"."business_partner" drop constraint "business_partner_city_id_within";`);
  }

}
