/**
 * The seed of list-scale: `count` business partners for one tenant in one INSERT ... SELECT over
 * generate_series, straight in SQL, through every constraint, index and trigger the migrations
 * made (unique (cr_process_id, partner_code), the per-tenant count). Values are varied and
 * reproducible (hashes of the row's number and tenant, no random()):
 *
 * - partnerName: one of 50 words, one of 40 trades, half the time a number up to 2,000, and one of
 *   8 legal forms ("Kartal Lojistik 417 Ltd. Şti."): about 500,000 distinct names per million;
 * - partnerCode `BP-0000001` ...; partnerType CUSTOMER 60 %, SUPPLIER 30 %, BOTH 10 %;
 * - status true for 95 %; createdAt spread evenly over 2022-01-01 .. 2025-12-31, updatedAt up to
 *   200 days later, version 0..3, createdBy/updatedBy `admin`;
 * - taxNumber, email, phone, countryId, cityId and address all set.
 */
import pg from 'pg';
import { fmt, login, onCleanup, startBenchPlatform, type BenchPlatform } from './lib.ts';

const FIRST_WORDS = [
  'Anadolu',
  'Marmara',
  'Ege',
  'Karadeniz',
  'Akdeniz',
  'Atlas',
  'Delta',
  'Nova',
  'Global',
  'Kuzey',
  'Güney',
  'Doğu',
  'Batı',
  'Yıldız',
  'Kartal',
  'Aslan',
  'Çınar',
  'Defne',
  'Lale',
  'Mavi',
  'Yeşil',
  'Altın',
  'Gümüş',
  'Demir',
  'Bakır',
  'Toros',
  'Uludağ',
  'Boğaziçi',
  'Kapadokya',
  'Trakya',
  'Alpha',
  'Beta',
  'Orion',
  'Vega',
  'Sirius',
  'Polaris',
  'Zenith',
  'Apex',
  'Summit',
  'Vertex',
  'Nordic',
  'Baltic',
  'Iberia',
  'Helvetia',
  'Bavaria',
  'Rhein',
  'Danube',
  'Alpine',
  'Coastal',
  'Harbor',
];
const TRADES = [
  'Tekstil',
  'Gıda',
  'Lojistik',
  'Enerji',
  'İnşaat',
  'Makine',
  'Kimya',
  'Otomotiv',
  'Yazılım',
  'Danışmanlık',
  'Ticaret',
  'Tarım',
  'Mobilya',
  'Elektrik',
  'Medikal',
  'Turizm',
  'Ambalaj',
  'Plastik',
  'Metal',
  'Cam',
  'Kağıt',
  'Matbaa',
  'Sigorta',
  'Finans',
  'Gayrimenkul',
  'Trading',
  'Logistics',
  'Systems',
  'Foods',
  'Textiles',
  'Energy',
  'Motors',
  'Chemicals',
  'Solutions',
  'Industries',
  'Holding',
  'Group',
  'Partners',
  'Supply',
  'Services',
];
const LEGAL_FORMS = ['A.Ş.', 'Ltd. Şti.', 'GmbH', 'Inc.', 'LLC', 'S.A.', 'B.V.', 'Ltd.'];

const words = (list: readonly string[]): string => `array[${list.map((w) => `'${w}'`).join(',')}]`;

/**
 * The tenant's 40 countries of 10 cities each (parameter: $1 tenant), which the partners name: their
 * keys cross into core's schema (docs/adr/0065-keys-across-schemas.md). Codes `AA`..`BN`, per tenant.
 */
export const PLACES_SQL = `
with countries as (
  insert into core.country (version, cr_process_id, status, created_at, updated_at, created_by, updated_by, code, name)
  select 0, $1::bigint, true, now(), now(), 'admin', 'admin', chr(65 + i / 26) || chr(65 + i % 26), 'Country ' || i
  from generate_series(0, 39) as i
  returning id, cr_process_id
)
insert into core.city (version, cr_process_id, status, created_at, updated_at, created_by, updated_by, country_id, name)
select 0, c.cr_process_id, true, now(), now(), 'admin', 'admin', c.id, 'City ' || j
from countries c, generate_series(1, 10) as j`;

/**
 * The INSERT ... SELECT of `count` partners of tenant `crProcessId` (parameters: $1 tenant, $2
 * count), each naming one of the tenant's 40 countries and one of that country's cities (PLACES_SQL).
 */
export const SEED_SQL = `
with places as (
  select array_agg(country_id order by id) as countries, array_agg(id order by id) as cities from core.city where cr_process_id = $1::bigint
)
insert into bpm.business_partner (version, cr_process_id, status, created_at, updated_at, created_by, updated_by,
  partner_code, partner_name, partner_type, tax_number, email, phone, country_id, city_id, address)
select
  v, $1::bigint, (h >> 24) % 100 >= 5, c, c + ((h >> 16) % 200) * interval '1 day', 'admin', 'admin',
  'BP-' || lpad(g::text, 7, '0'),
  w1 || ' ' || w2 || ' ' || s,
  case when (h >> 8) % 10 < 6 then 'CUSTOMER' when (h >> 8) % 10 < 9 then 'SUPPLIER' else 'BOTH' end,
  lpad((h % 10000000000)::text, 10, '0'),
  lower(translate(w1, 'ğüşıöçĞÜŞİÖÇ', 'gusiocGUSIOC')) || '.' || g || '@example.com',
  '+90 212 ' || lpad((h % 10000000)::text, 7, '0'),
  places.countries[1 + h % 400], places.cities[1 + h % 400],
  'Cad. No:' || (h % 200 + 1) || ', İstanbul'
from generate_series(1, $2::int) as g,
  lateral (select abs(hashint8extended(g * 2 + $1::bigint, 0)) as h) as hh,
  lateral (select
    (${words(FIRST_WORDS)})[1 + (h >> 32) % ${FIRST_WORDS.length}] as w1,
    (${words(TRADES)})[1 + (h >> 40) % ${TRADES.length}] || case when (h >> 44) % 4000 < 2000 then '' else ' ' || ((h >> 44) % 4000 - 1999) end as w2,
    (${words(LEGAL_FORMS)})[1 + (h >> 52) % ${LEGAL_FORMS.length}] as s,
    timestamptz '2022-01-01 00:00:00+00' + (abs(hashint8extended(g * 2 + $1::bigint, 1)) % 126144000) * interval '1 second' as c,
    (abs(hashint8extended(g * 2 + $1::bigint, 2)) % 4)::int as v
  ) as w, places`;

/** How long each step of the seed took, ms. */
export interface SeedTimes {
  insert: number;
  indexes: number;
  vacuum: number;
}

/**
 * Inserts `count` partners for each tenant of `tenants`, one tenant per client, all at once; then
 * VACUUM ANALYZE (statistics, and the visibility map that lets deep pages read keys off the index
 * alone: autovacuum does the same after a bulk insert). As a bulk load does (pg_restore), the
 * table's plain indexes are dropped before the insert and built again after it from their own
 * definitions (pg_get_indexdef), shared out over the clients: building a GIN index at once is
 * several times faster than updating it row by row. The foreign keys into core's country and city
 * are dropped and added again after the insert, as pg_restore adds them, which checks every row in
 * one pass. Unique keys, the primary key and the triggers stay on throughout, so every constraint
 * is checked and the per-tenant count kept.
 */
export async function seedTenants(clients: readonly pg.Client[], tenants: readonly number[], count: number): Promise<SeedTimes> {
  const [first] = clients;
  if (!first || clients.length < tenants.length) throw new Error('one client per tenant');
  const started = performance.now();
  const { rows: indexes } = await first.query<{ name: string; definition: string }>(
    `select c.relname as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class c on c.oid = i.indexrelid
      where i.indrelid = 'bpm.business_partner'::regclass and not i.indisunique and not i.indisprimary
      order by pg_relation_size(i.indexrelid) desc, c.relname`,
  );
  // the keys into core's country and city likewise: checked row by row they made the insert four
  // times as long (200,000 rows: 8.7 s against 2.1 s); added again, each checks every row in one join
  const { rows: keys } = await first.query<{ name: string; definition: string }>(
    `select conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'bpm.business_partner'::regclass and contype = 'f' order by conname`,
  );
  for (const index of indexes) await first.query(`drop index bpm.${first.escapeIdentifier(index.name)}`);
  for (const key of keys) await first.query(`alter table bpm.business_partner drop constraint ${first.escapeIdentifier(key.name)}`);
  await Promise.all(tenants.map((tenant, i) => clients[i]?.query(PLACES_SQL, [tenant])));
  await Promise.all(tenants.map((tenant, i) => clients[i]?.query(SEED_SQL, [tenant, count])));
  for (const key of keys) await first.query(`alter table bpm.business_partner add constraint ${first.escapeIdentifier(key.name)} ${key.definition}`);
  const inserted = performance.now();
  // the largest first, each to the next free client
  const queue = [...indexes];
  await Promise.all(
    clients.map(async (client) => {
      await client.query(`set maintenance_work_mem = '256MB'`);
      for (let index = queue.shift(); index; index = queue.shift()) await client.query(index.definition);
    }),
  );
  const indexed = performance.now();
  await first.query('vacuum analyze bpm.business_partner');
  return { insert: inserted - started, indexes: indexed - inserted, vacuum: performance.now() - indexed };
}

/**
 * A bench platform whose tenant `tenant` holds `rows` partners (seedTenants, one connection), and
 * the admin's token: what the scenarios that read one large tenant start from.
 *
 * @example
 * const { platform, token } = await seededPlatform(1, 1_000_000);
 */
export async function seededPlatform(tenant: number, rows: number): Promise<{ platform: BenchPlatform; token: string }> {
  const platform = await startBenchPlatform();
  const token = await login(platform);
  const client = new pg.Client({ connectionString: platform.databaseUrl });
  onCleanup(() => client.end().catch(() => undefined));
  await client.connect();
  const seedStart = performance.now();
  await seedTenants([client], [tenant], rows);
  console.log(`# seed: ${fmt((performance.now() - seedStart) / 1000, 1)} s`);
  return { platform, token };
}
