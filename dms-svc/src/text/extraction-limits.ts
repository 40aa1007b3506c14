/** What one file's extraction may take (DMS_TEXT_*, docs/interface.md#configuration). */
export interface ExtractionLimits {
  /** The whole file's time, every tool's run included (DMS_TEXT_TIMEOUT_SECONDS). */
  timeoutMs: number;
  /** Each tool's address space (DMS_TEXT_MEMORY_MB). */
  memoryBytes: number;
  /** A PDF of more pages is refused (DMS_TEXT_MAX_PAGES). */
  maxPages: number;
  /** An image, an image in a PDF or a page rendered for OCR of more pixels is refused or rendered smaller (DMS_TEXT_MAX_PIXELS). */
  maxPixels: number;
  /** The characters of text kept per file; the rest is cut off (DMS_TEXT_MAX_CHARS). */
  maxChars: number;
}

/** The resolution pages are rendered at for OCR, unless the page is too large for maxPixels. */
export const OCR_DPI = 300;

/** Tesseract's languages: English and Turkish at once (a Turkish invoice names English products). */
export const OCR_LANGUAGES = 'eng+tur';
