/**
 * How an import compares words a person wrote with the platform's (a column's header with a
 * field's label, a cell with an enum value's label): the Turkish dotted and dotless I read as i,
 * diacritics dropped, case ignored, and anything but letters and digits left out, so that
 * `Ortak Türü`, `ORTAK TURU` and `ortak_turu` are one word.
 *
 * @example
 * fold('İş ortağı') // 'isortagi'
 */
export function fold(text: string): string {
  return text
    .replace(/[İIı]/g, 'i')
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, '');
}
