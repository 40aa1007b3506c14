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
import type pg from 'pg';

const FIRST_WORDS = [
  'Anadolu', 'Marmara', 'Ege', 'Karadeniz', 'Akdeniz', 'Atlas', 'Delta', 'Nova', 'Global', 'Kuzey',
  'Güney', 'Doğu', 'Batı', 'Yıldız', 'Kartal', 'Aslan', 'Çınar', 'Defne', 'Lale', 'Mavi',
  'Yeşil', 'Altın', 'Gümüş', 'Demir', 'Bakır', 'Toros', 'Uludağ', 'Boğaziçi', 'Kapadokya', 'Trakya',
  'Alpha', 'Beta', 'Orion', 'Vega', 'Sirius', 'Polaris', 'Zenith', 'Apex', 'Summit', 'Vertex',
  'Nordic', 'Baltic', 'Iberia', 'Helvetia', 'Bavaria', 'Rhein', 'Danube', 'Alpine', 'Coastal', 'Harbor',
];
const TRADES = [
  'Tekstil', 'Gıda', 'Lojistik', 'Enerji', 'İnşaat', 'Makine', 'Kimya', 'Otomotiv', 'Yazılım', 'Danışmanlık',
  'Ticaret', 'Tarım', 'Mobilya', 'Elektrik', 'Medikal', 'Turizm', 'Ambalaj', 'Plastik', 'Metal', 'Cam',
  'Kağıt', 'Matbaa', 'Sigorta', 'Finans', 'Gayrimenkul', 'Trading', 'Logistics', 'Systems', 'Foods', 'Textiles',
  'Energy', 'Motors', 'Chemicals', 'Solutions', 'Industries', 'Holding', 'Group', 'Partners', 'Supply', 'Services',
];
const LEGAL_FORMS = ['A.Ş.', 'Ltd. Şti.', 'GmbH', 'Inc.', 'LLC', 'S.A.', 'B.V.', 'Ltd.'];

const words = (list: readonly string[]): string => `array[${list.map((w) => `'${w}'`).join(',')}]`;

/** The INSERT ... SELECT of `count` partners of tenant `crProcessId` (parameters: $1 tenant, $2 count). */
export const SEED_SQL = `
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
  1 + h % 40, 1 + h % 400,
  'Cad. No:' || (h % 200 + 1) || ', İstanbul'
from generate_series(1, $2::int) as g,
  lateral (select abs(hashint8extended(g * 2 + $1::bigint, 0)) as h) as hh,
  lateral (select
    (${words(FIRST_WORDS)})[1 + (h >> 32) % ${FIRST_WORDS.length}] as w1,
    (${words(TRADES)})[1 + (h >> 40) % ${TRADES.length}] || case when (h >> 44) % 4000 < 2000 then '' else ' ' || ((h >> 44) % 4000 - 1999) end as w2,
    (${words(LEGAL_FORMS)})[1 + (h >> 52) % ${LEGAL_FORMS.length}] as s,
    timestamptz '2022-01-01 00:00:00+00' + (abs(hashint8extended(g * 2 + $1::bigint, 1)) % 126144000) * interval '1 second' as c,
    (abs(hashint8extended(g * 2 + $1::bigint, 2)) % 4)::int as v
  ) as w`;

/** Inserts `count` partners of tenant `crProcessId` on `client`. */
export async function seedTenant(client: pg.Client, crProcessId: number, count: number): Promise<void> {
  await client.query(SEED_SQL, [crProcessId, count]);
}
