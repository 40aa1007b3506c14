import { ExtractionFailure } from './extraction-failure.ts';
import type { ExtractionLimits } from './extraction-limits.ts';
import { OCR_IMAGE_TYPES, readImage } from './read-image.ts';
import { readPdf } from './read-pdf.ts';
import { PLAIN_TYPES, readPlain } from './read-plain.ts';

/** A file's text as it was read. */
export interface ExtractedText {
  text: string;
  method: 'text-layer' | 'ocr' | 'plain';
  pages: number | null;
  /** Where the text stops short of the file's: cut at maxChars, or the OCR out of time. */
  cut?: string;
}

/**
 * Reads the words of the file at `path` (a private copy, in `workDir`) by its sniffed MIME type
 * (docs/adr/0159-documents-found-by-their-words.md): a PDF by its text layer or by OCR, an image by
 * OCR, a plain text file as it is. Any other type is SKIPPED with its reason; a file that cannot
 * be read, or breaks a limit, is an ExtractionFailure. The text is NUL-free and cut at `maxChars`.
 */
export async function extractText(path: string, mimeType: string, workDir: string, limits: ExtractionLimits): Promise<ExtractedText> {
  const deadline = performance.now() + limits.timeoutMs;
  const read = await readByType(path, mimeType, workDir, limits, deadline);
  // PostgreSQL's text holds no NUL; the other control characters but tab, line and page breaks say nothing
  // eslint-disable-next-line no-control-regex -- the control characters are what it removes
  const clean = read.text.replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, ' ');
  if (clean.length <= limits.maxChars) return { ...read, text: clean };
  return { ...read, text: clean.slice(0, limits.maxChars), cut: `the text was cut at ${limits.maxChars.toLocaleString('en')} characters` };
}

async function readByType(path: string, mimeType: string, workDir: string, limits: ExtractionLimits, deadline: number): Promise<ExtractedText> {
  const type = mimeType.split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/pdf') {
    const pdf = await readPdf(path, workDir, limits, deadline);
    return { text: pdf.text, method: pdf.method, pages: pdf.pages, ...(pdf.cut ? { cut: pdf.cut } : {}) };
  }
  if (OCR_IMAGE_TYPES.has(type)) return { text: await readImage(path, limits, deadline), method: 'ocr', pages: 1 };
  if (PLAIN_TYPES.has(type)) {
    const plain = await readPlain(path, limits.maxChars);
    return {
      text: plain.text,
      method: 'plain',
      pages: null,
      ...(plain.truncated ? { cut: `the text was cut at ${limits.maxChars.toLocaleString('en')} characters` } : {}),
    };
  }
  throw new ExtractionFailure(`files of type ${type || 'unknown'} are not read for their words`, 'SKIPPED');
}
