import { imageSizeFromFile } from 'image-size/fromFile';
import { ExtractionFailure } from './extraction-failure.ts';
import type { ExtractionLimits } from './extraction-limits.ts';
import { OCR_LANGUAGES } from './extraction-limits.ts';
import { runLimited } from './limited-run.ts';

/** The image types Tesseract (through Leptonica) reads. */
export const OCR_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/tiff', 'image/bmp', 'image/gif', 'image/webp']);

/**
 * The words of an image, by OCR (Tesseract, English and Turkish). Its size is read from its header
 * first: an image of more than `maxPixels` (a huge scan, or a decompression bomb: a few kilobytes
 * that would unpack to gigabytes) is refused before a byte of it is decoded.
 */
export async function readImage(path: string, limits: ExtractionLimits, deadline: number): Promise<string> {
  const size = await imageSizeFromFile(path).catch((error: unknown) => {
    throw new ExtractionFailure(`the image could not be read: ${error instanceof Error ? error.message : String(error)}`);
  });
  assertPixels(size.width, size.height, limits.maxPixels, 'the image');
  const { stdout } = await runLimited('tesseract', [path, '-', '-l', OCR_LANGUAGES], {
    deadline,
    memoryBytes: limits.memoryBytes,
    maxOutputBytes: limits.maxChars * 4,
  });
  return stdout.toString('utf8');
}

/** Refuses `what` of width × height pixels beyond the limit, naming both. */
export function assertPixels(width: number, height: number, maxPixels: number, what: string): void {
  if (width * height > maxPixels) {
    throw new ExtractionFailure(
      `${what} is ${width} × ${height} pixels (${(width * height).toLocaleString('en')}), more than the limit of ${maxPixels.toLocaleString('en')}`,
    );
  }
}
