/**
 * The seed of text-search: `perTenant` files with their read text for each of `tenants` tenants,
 * straight in SQL as the database's owner, in set-based INSERT ... SELECT statements: dms.dms_file
 * rows, their dms.dms_file_text rows (DONE, English, two pages of text, the search vector in
 * dms.english_folded) and the tenant's lexemes in dms.dms_text_word, as dms-worker leaves them
 * (dms-svc/src/text/text-store.ts saveText). Reproducible: every choice is a hash of a number, no
 * random().
 *
 * - The vocabulary: the 14,400 words of two and three syllables from 24 syllables ("kalo",
 *   "renmitas"), none a stop word; a page's 300 words drawn from it skewed towards its first words
 *   (index = 14,400 × u³, u uniform), as natural language repeats a few words often.
 * - A pool of PAGES distinct pages (300 words, about 2 KB each), each with its vector
 *   (to_tsvector('dms.english_folded', page)), built once.
 * - A file is two pages of the pool, both picked by a hash of its number: its content the two
 *   pages joined by a space, its vector the two pages' vectors concatenated (`||` shifts the second
 *   one's positions past the first's, which is what to_tsvector of the joined text gives when the
 *   first page's last word is a lexeme, as every word of the vocabulary is; checked on a sample).
 *   Computing the vector once per page instead of once per file is what makes a million files
 *   seedable in minutes.
 * - One file in a hundred (its number a multiple of 100) has COMMON_WORD between its two pages: a
 *   word in exactly 1 % of each tenant's files, found in no other lexeme (the search's partial
 *   match adds nothing).
 *
 * As a bulk load does (pg_restore), the plain indexes of both tables and the key of the text to its
 * file are dropped before the inserts and made again after them (`pg_get_indexdef`,
 * `pg_get_constraintdef`), then VACUUM ANALYZE; the primary keys and triggers stay on throughout.
 */
import type pg from 'pg';
import { BenchError } from './lib.ts';

/** The word in 1 % of every tenant's files: the search's term. */
export const COMMON_WORD = 'zephyrquix';
/** Distinct pages the files are made of. */
const PAGES = 5000;
/** Words per page: a file is two pages, about 600 words. */
const WORDS_PER_PAGE = 300;
const SYLLABLES = [
  'ka',
  'lo',
  'ren',
  'mi',
  'tas',
  'du',
  'ver',
  'no',
  'sel',
  'pa',
  'ri',
  'gun',
  'te',
  'bo',
  'lan',
  'si',
  'mar',
  'fe',
  'zo',
  'kel',
  'ar',
  'vi',
  'dan',
  'tor',
];
const VOCABULARY = SYLLABLES.length ** 2 + SYLLABLES.length ** 3;
/** The table of the page pool, in the owner's public schema while seeding. */
const PAGE_TABLE = 'public.bench_text_page';

const PAGES_SQL = `
create unlogged table ${PAGE_TABLE} as
with syllables as (select array[${SYLLABLES.map((s) => `'${s}'`).join(',')}] as s),
vocabulary as (
  select row_number() over (order by n, a, b, c) as i, w from (
    select 2 as n, a, b, 0 as c, s[1 + a] || s[1 + b] as w from syllables, generate_series(0, ${SYLLABLES.length - 1}) a, generate_series(0, ${SYLLABLES.length - 1}) b
    union all
    select 3, a, b, c, s[1 + a] || s[1 + b] || s[1 + c] from syllables, generate_series(0, ${SYLLABLES.length - 1}) a, generate_series(0, ${SYLLABLES.length - 1}) b, generate_series(0, ${SYLLABLES.length - 1}) c
  ) as all_words
)
select p, string_agg(v.w, ' ' order by k) as content
  from generate_series(1, ${PAGES}) as p cross join generate_series(1, ${WORDS_PER_PAGE}) as k
  join vocabulary v on v.i = 1 + floor(${VOCABULARY} * power((abs(hashint8extended(p::bigint * 1000 + k, 7)) % 1000000) / 1000000.0, 3))::int
 group by p`;

/**
 * The files of tenant $1 (parameters: $1 tenant, $2 files per tenant, $3 the first file's id - 1).
 * Sizes, types and dates as uploads of PDFs would have them.
 */
const FILES_SQL = `
insert into dms.dms_file (id, version, cr_process_id, status, created_at, updated_at, created_by, updated_by, original_file_name,
  stored_file_name, file_size, mime_type, upload_date, checksum, deleted)
select $3::bigint + g, 0, $1::bigint, true, d, d, 'admin', 'admin', 'belge-' || lpad(g::text, 7, '0') || '.pdf',
  'bench-' || $1::bigint || '-' || g, 20000 + abs(hashint8extended(g, 5)) % 200000, 'application/pdf', d, md5(g::text || '-' || $1::text) || md5(g::text), false
  from generate_series(1, $2::int) as g,
  lateral (select timestamptz '2024-01-01 00:00:00+00' + (abs(hashint8extended(g, 4)) % 63072000) * interval '1 second' as d) as dd`;

/** Their text rows: two pages each, COMMON_WORD between them in one file of a hundred (same parameters). */
const TEXTS_SQL = `
insert into dms.dms_file_text (file_id, cr_process_id, status, attempts, language, method, pages, content, truncated, search, queued_at, finished_at)
select $3::bigint + g, $1::bigint, 'DONE', 1, 'english', 'text-layer', 2,
  a.content || case when g % 100 = 0 then ' ${COMMON_WORD} ' else ' ' end || b.content, false,
  a.vec || case when g % 100 = 0 then to_tsvector('dms.english_folded', '${COMMON_WORD}') else ''::tsvector end || b.vec,
  now(), now()
  from generate_series(1, $2::int) as g,
  lateral (select abs(hashint8extended(g * 7919 + $1::bigint, 3)) as h) as hh
  join ${PAGE_TABLE} a on a.p = 1 + hh.h % ${PAGES}
  join ${PAGE_TABLE} b on b.p = 1 + (hh.h >> 20) % ${PAGES}`;

/** The tenant's lexemes (parameter $1): every page's and the common word's, as the worker adds each file's. */
const WORDS_SQL = `
insert into dms.dms_text_word (cr_process_id, word)
select distinct $1::bigint, w from ${PAGE_TABLE}, unnest(tsvector_to_array(vec)) as w
union select $1::bigint, w from unnest(tsvector_to_array(to_tsvector('dms.english_folded', '${COMMON_WORD}'))) as w`;

/** How long each step of the seed took, ms. */
export interface TextSeedTimes {
  pages: number;
  insert: number;
  indexes: number;
  vacuum: number;
}

const TABLES = ['dms.dms_file', 'dms.dms_file_text', 'dms.dms_text_word'] as const;

/**
 * Seeds `perTenant` files with text for each tenant of `tenants` (the tenants shared out over the
 * clients, all connected as the owner), then checks on a sample of the first tenant that the
 * seeded vectors are to_tsvector of the content.
 */
export async function seedTexts(clients: readonly pg.Client[], tenants: readonly number[], perTenant: number): Promise<TextSeedTimes> {
  const [first] = clients;
  if (!first) throw new Error('at least one client');
  const started = performance.now();
  await first.query(`drop table if exists ${PAGE_TABLE}`);
  await first.query(PAGES_SQL);
  await first.query(`alter table ${PAGE_TABLE} add column vec tsvector`);
  await first.query(`update ${PAGE_TABLE} set vec = to_tsvector('dms.english_folded', content)`);
  await first.query(`alter table ${PAGE_TABLE} add primary key (p)`);
  await first.query(`analyze ${PAGE_TABLE}`);
  const paged = performance.now();

  const { rows: indexes } = await first.query<{ name: string; definition: string }>(
    `select n.nspname || '.' || quote_ident(c.relname) as name, pg_get_indexdef(i.indexrelid) as definition
       from pg_index i join pg_class c on c.oid = i.indexrelid join pg_namespace n on n.oid = c.relnamespace
      where i.indrelid = any($1::regclass[]) and not i.indisunique and not i.indisprimary
      order by pg_relation_size(i.indexrelid) desc, c.relname`,
    [TABLES],
  );
  const { rows: keys } = await first.query<{ table: string; name: string; definition: string }>(
    `select conrelid::regclass::text as table, conname as name, pg_get_constraintdef(oid) as definition from pg_constraint
      where conrelid = 'dms.dms_file_text'::regclass and contype = 'f' order by conname`,
  );
  for (const index of indexes) await first.query(`drop index ${index.name}`);
  for (const key of keys) await first.query(`alter table ${key.table} drop constraint ${first.escapeIdentifier(key.name)}`);

  // each client its share of the tenants, one tenant after another
  const queue = tenants.map((tenant, i) => ({ tenant, firstId: i * perTenant }));
  await Promise.all(
    clients.map(async (client) => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        await client.query(FILES_SQL, [next.tenant, perTenant, next.firstId]);
        await client.query(TEXTS_SQL, [next.tenant, perTenant, next.firstId]);
        await client.query(WORDS_SQL, [next.tenant]);
      }
    }),
  );
  await first.query(`select setval(pg_get_serial_sequence('dms.dms_file', 'id'), (select max(id) from dms.dms_file))`);
  for (const key of keys) await first.query(`alter table ${key.table} add constraint ${first.escapeIdentifier(key.name)} ${key.definition}`);
  const inserted = performance.now();

  // the largest first (the GIN of the vectors), each to the next free client
  const builds = [...indexes];
  await Promise.all(
    clients.map(async (client) => {
      await client.query(`set maintenance_work_mem = '256MB'`);
      for (let index = builds.shift(); index; index = builds.shift()) await client.query(index.definition);
    }),
  );
  const indexed = performance.now();
  await Promise.all(TABLES.map((table, i) => clients[i % clients.length]?.query(`vacuum analyze ${table}`)));
  const vacuumed = performance.now();

  const { rows: differing } = await first.query<{ n: string }>(
    `select count(*) as n from (select content, search from dms.dms_file_text where cr_process_id = $1 order by file_id limit 1000) s
      where search <> to_tsvector('dms.english_folded', content)`,
    [tenants[0]],
  );
  if (Number(differing[0]?.n) !== 0) throw new BenchError(`seed: ${differing[0]?.n} of 1,000 sampled vectors differ from to_tsvector of their content`);
  await first.query(`drop table ${PAGE_TABLE}`);
  return { pages: paged - started, insert: inserted - paged, indexes: indexed - inserted, vacuum: vacuumed - indexed };
}
