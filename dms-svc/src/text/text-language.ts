import { franc } from 'franc-min';

/** The languages a file's words are indexed in: each a folded text search configuration of dms (dms.english_folded, dms.turkish_folded). */
export type TextLanguage = 'english' | 'turkish';

export const TEXT_LANGUAGES: readonly TextLanguage[] = ['english', 'turkish'];

const BY_CODE: Record<string, TextLanguage> = { eng: 'english', tur: 'turkish' };

/**
 * The language of a file's text, English or Turkish (franc's trigram model, told to choose between
 * the two), or `fallback` (the tenant's) when the text is too short to tell.
 *
 * @example
 * detectLanguage('Bu sözleşme iki taraf arasında imzalanmıştır.', 'english') // 'turkish'
 */
export function detectLanguage(text: string, fallback: TextLanguage): TextLanguage {
  // franc reads the first 2,048 characters at most; a sample from the start is the same answer
  const code = franc(text.slice(0, 4096), { only: ['eng', 'tur'], minLength: 20 });
  return BY_CODE[code] ?? fallback;
}
