import rangeParser from 'range-parser';

/** What a download answers to its Range header. */
export type RangeAnswer = { kind: 'whole' } | { kind: 'unsatisfiable' } | { kind: 'part'; start: number; end: number };

const UNIT = /^bytes=/i;
/** RFC 9110 §14.1.1: `first-pos "-" [ last-pos ]` or `"-" suffix-length`, digits only. */
const SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * The answer to `header` for a file of `size` bytes (docs/adr/0032-download.md, Download): one
 * valid range is a part (206), or unsatisfiable (416) when it lies past the end — any range of an
 * empty file too; anything else gets the whole file (200): no header, another unit, a malformed
 * header, a range whose last-pos is below its first-pos (invalid by RFC 9110 §14.1.1, so the header
 * is ignored, as §14.2 allows), and more than one range. "More than one" is judged on the header
 * as sent, before any merging: `bytes=0-5,3-10` is two ranges and gets the whole file. The
 * arithmetic of a single range (suffixes, an end past the file) is range-parser's.
 */
export function rangeOf(header: string | undefined, size: number): RangeAnswer {
  if (header === undefined || !UNIT.test(header)) return { kind: 'whole' };
  // RFC 9110 §5.6.1: a list's empty elements are ignored, its elements may have spaces around them
  const specs = header
    .slice('bytes='.length)
    .split(',')
    .map((spec) => spec.trim())
    .filter((spec) => spec !== '');
  if (specs.length !== 1) return { kind: 'whole' };
  const spec = SPEC.exec(specs[0] ?? '');
  if (!spec) return { kind: 'whole' };
  const [, first, last] = spec;
  if (first !== undefined && last !== undefined && last !== '' && Number(last) < Number(first)) return { kind: 'whole' };
  const ranges = rangeParser(size, `bytes=${specs[0]}`);
  if (ranges === -1) return { kind: 'unsatisfiable' };
  const range = ranges !== -2 && ranges.length === 1 ? ranges[0] : undefined;
  return range ? { kind: 'part', start: range.start, end: range.end } : { kind: 'whole' };
}
