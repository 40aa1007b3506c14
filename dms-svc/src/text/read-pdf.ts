import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ExtractionFailure } from './extraction-failure.ts';
import { OCR_DPI, OCR_LANGUAGES, type ExtractionLimits } from './extraction-limits.ts';
import { assertPixels } from './read-image.ts';
import { runLimited } from './limited-run.ts';

/** What a PDF gave: its text, its pages, and how the text was read. */
export interface PdfText {
  text: string;
  pages: number;
  method: 'text-layer' | 'ocr';
  /** Set when the text stops short of the document's end (the OCR ran out of time), saying where. */
  cut?: string;
}

/** Fewer visible characters a page than this in the text layer: the pages are scans, read by OCR. */
const TEXT_LAYER_MIN_CHARS_PER_PAGE = 16;
/** What pdfinfo and pdfimages print is small; more is not read. */
const LISTING_BYTES = 4 * 1024 * 1024;

/**
 * The words of a PDF (poppler-utils): its page count from pdfinfo first (more than `maxPages` is
 * refused), then its text layer by pdftotext; a PDF whose layer holds next to nothing is a scan,
 * and its pages are rendered (pdftoppm, grey, at 300 dpi or less where a page would exceed
 * `maxPixels`) and read by Tesseract one by one, after pdfimages has listed its images without
 * decoding them (one beyond `maxPixels` is a decompression bomb, refused). The OCR keeps what it read
 * of the pages it finished when the time runs out.
 */
export async function readPdf(path: string, workDir: string, limits: ExtractionLimits, deadline: number): Promise<PdfText> {
  const run = (command: string, args: string[], maxOutputBytes = LISTING_BYTES) =>
    runLimited(command, args, { deadline, memoryBytes: limits.memoryBytes, maxOutputBytes });
  const info = (await run('pdfinfo', [path])).stdout.toString('utf8');
  const pages = Number(/^Pages:\s+(\d+)/m.exec(info)?.[1] ?? NaN);
  if (!Number.isInteger(pages)) throw new ExtractionFailure('pdfinfo found no page count: not a readable PDF');
  if (pages > limits.maxPages) throw new ExtractionFailure(`the PDF has ${pages} pages, more than the limit of ${limits.maxPages}`);
  const layer = await run('pdftotext', ['-enc', 'UTF-8', '-q', path, '-'], limits.maxChars * 4);
  const text = layer.stdout.toString('utf8');
  if (visibleChars(text) >= TEXT_LAYER_MIN_CHARS_PER_PAGE * Math.max(1, pages)) return { text, pages, method: 'text-layer' };
  return { ...(await ocrPdf(path, workDir, pages, limits, deadline, run)), pages, method: 'ocr' };
}

async function ocrPdf(
  path: string,
  workDir: string,
  pages: number,
  limits: ExtractionLimits,
  deadline: number,
  run: (command: string, args: string[], maxOutputBytes?: number) => ReturnType<typeof runLimited>,
): Promise<{ text: string; cut?: string }> {
  // the images as they are stored, listed without being decoded: a bomb is refused here
  const images = (await run('pdfimages', ['-list', path])).stdout.toString('utf8');
  for (const line of images.split('\n').slice(2)) {
    const [page, , , width, height] = line.trim().split(/\s+/);
    if (page === undefined || width === undefined || height === undefined) continue;
    assertPixels(Number(width), Number(height), limits.maxPixels, `an image on page ${page}`);
  }
  const sizes = pageSizes((await run('pdfinfo', ['-f', '1', '-l', String(pages), path])).stdout.toString('utf8'));
  const texts: string[] = [];
  for (let page = 1; page <= pages; page += 1) {
    const image = join(workDir, `page-${page}`);
    try {
      await run('pdftoppm', [
        '-f',
        String(page),
        '-l',
        String(page),
        '-r',
        String(dpiFor(sizes.get(page), limits.maxPixels)),
        '-gray',
        '-png',
        '-singlefile',
        path,
        image,
      ]);
      texts.push((await run('tesseract', [`${image}.png`, '-', '-l', OCR_LANGUAGES], limits.maxChars * 4)).stdout.toString('utf8'));
    } catch (error) {
      // out of time after some pages: what was read is kept, and says where it stops
      if (error instanceof ExtractionFailure && performance.now() >= deadline && texts.length > 0) {
        return { text: texts.join('\n\f'), cut: `the OCR read ${texts.length} of ${pages} pages within the time limit` };
      }
      throw error;
    } finally {
      await rm(`${image}.png`, { force: true });
    }
  }
  return { text: texts.join('\n\f') };
}

/** Each page's size in points, from `pdfinfo -f 1 -l n` ("Page    3 size: 612 x 792 pts"). */
function pageSizes(info: string): Map<number, { width: number; height: number }> {
  const sizes = new Map<number, { width: number; height: number }>();
  for (const match of info.matchAll(/^Page\s+(\d+) size:\s+([\d.]+) x ([\d.]+) pts/gm)) {
    sizes.set(Number(match[1]), { width: Number(match[2]), height: Number(match[3]) });
  }
  return sizes;
}

/** 300 dpi, or less where the page would render to more than maxPixels. */
export function dpiFor(size: { width: number; height: number } | undefined, maxPixels: number): number {
  if (!size || size.width <= 0 || size.height <= 0) return OCR_DPI;
  const squareInches = (size.width / 72) * (size.height / 72);
  return Math.max(1, Math.min(OCR_DPI, Math.floor(Math.sqrt(maxPixels / squareInches))));
}

function visibleChars(text: string): number {
  return text.replace(/\s+/g, '').length;
}
