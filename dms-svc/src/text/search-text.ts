import type { EntityManager } from '@mikro-orm/postgresql';

/** A file the text search found: how well it matches, and its passages that do (safe HTML). */
export interface TextHit {
  fileId: number;
  rank: number;
  snippet: string;
}

/** What a text search is narrowed by, beside its tenant (the files' own columns). */
export interface TextFilters {
  categoryId?: number;
  mimeType?: string;
  uploadedFrom?: Date;
  uploadedTo?: Date;
  createdBy?: string;
  /** Categories whose files the caller may not read. */
  unreadableCategories?: readonly number[];
}

/** The most lexemes one word of the search stands for as a part of them (the trigram match). */
const PARTIALS_PER_WORD = 20;
/** A word shorter than this is matched whole only: a trigram index answers from three characters. */
const PARTIAL_MIN_LENGTH = 3;
/** How many hits get a snippet: the first ones, in rank order (ts_headline reads each text again). */
export const SNIPPETS = 50;
/** What marks a match in ts_headline's output, before escaping: characters extraction never keeps (text/extract-text.ts). */
const START = '\u0002';
const STOP = '\u0003';

/**
 * A search term folded as the folded configurations fold a word (lower case, accents and the
 * Turkish dotless ı away), split into its words, for the trigram match of the tenant's lexemes.
 *
 * @example
 * foldedWords('Sözleşme İŞ') // ['sozlesme', 'is']
 */
export function foldedWords(term: string): string[] {
  return term
    .replace(/ı/g, 'i')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

/**
 * The files of tenant `crProcessId` whose text matches `term` (docs/adr/0159-documents-found-by-their-words.md),
 * best first, at most `limit`: the term's words in both folded configurations (English and Turkish
 * stems: each file's vector is in its own language), or-ed with the tenant's lexemes that hold a
 * word of three characters or more (dms_text_word, by its trigram index: a word's start, a part of
 * it). Ranked by ts_rank; the first SNIPPETS hits carry their passages, the words found in <mark>
 * and every other character HTML-escaped. Live files only (a deleted file has no text row), of
 * readable categories, narrowed by `filters`. Runs in the caller's scope (the tenant wall).
 */
export async function searchText(em: EntityManager, crProcessId: number, term: string, filters: TextFilters, limit: number): Promise<TextHit[]> {
  // letters and digits only (foldedWords splits at anything else): nothing in a fragment means anything to LIKE
  const partials = foldedWords(term)
    .filter((word) => word.length >= PARTIAL_MIN_LENGTH)
    .slice(0, 8);
  const where: string[] = [];
  const params: unknown[] = [];
  const narrow = (condition: string, value: unknown) => {
    where.push(condition);
    params.push(value);
  };
  if (filters.categoryId !== undefined) narrow('f.category_id = ?', filters.categoryId);
  if (filters.mimeType !== undefined) narrow('f.mime_type = ?', filters.mimeType);
  if (filters.uploadedFrom !== undefined) narrow('f.upload_date >= ?', filters.uploadedFrom);
  if (filters.uploadedTo !== undefined) narrow('f.upload_date < ?', filters.uploadedTo);
  if (filters.createdBy !== undefined) narrow('f.created_by = ?', filters.createdBy);
  if (filters.unreadableCategories?.length) {
    narrow('(f.category_id is null or f.category_id <> all(?::bigint[]))', `{${filters.unreadableCategories.join(',')}}`);
  }
  const rows = await em.execute<{ file_id: string; rank: number; snippet: string | null }[]>(
    `with partial as (
       select string_agg(quote_literal(w.word), ' | ') as q
         from unnest(?::text[]) as p(fragment)
         cross join lateral (select word from "dms"."dms_text_word"
                              where cr_process_id = ? and word like '%' || p.fragment || '%'
                              limit ${PARTIALS_PER_WORD}) as w
     ),
     q as (
       select websearch_to_tsquery('dms.english_folded', ?) || websearch_to_tsquery('dms.turkish_folded', ?)
              || coalesce((select q from partial)::tsquery, ''::tsquery) as query
     ),
     hits as (
       select t.file_id, ts_rank(t.search, q.query) as rank
         from "dms"."dms_file_text" t cross join q
         join "dms"."dms_file" f on f.id = t.file_id
        where t.cr_process_id = ? and t.search @@ q.query and not f.deleted${where.map((condition) => ` and ${condition}`).join('')}
        order by rank desc, t.file_id
        limit ?
     )
     select h.file_id, h.rank,
            case when row_number() over (order by h.rank desc, h.file_id) <= ${SNIPPETS}
                 then ts_headline(('dms.' || t.language || '_folded')::regconfig, t.content, q.query,
                                  'StartSel=${START}, StopSel=${STOP}, MaxFragments=3, MaxWords=18, MinWords=6, FragmentDelimiter=" … "')
            end as snippet
       from hits h join "dms"."dms_file_text" t on t.file_id = h.file_id cross join q
      order by h.rank desc, h.file_id`,
    [`{${partials.map((word) => `"${word}"`).join(',')}}`, crProcessId, term, term, crProcessId, ...params, limit],
  );
  return rows.map((row) => ({ fileId: Number(row.file_id), rank: Number(row.rank), snippet: row.snippet === null ? '' : markedHtml(row.snippet) }));
}

/** ts_headline's passage as safe HTML: every character escaped, then the matches' markers made <mark> elements. */
export function markedHtml(passage: string): string {
  return passage
    .replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
    .replaceAll(START, '<mark>')
    .replaceAll(STOP, '</mark>');
}
