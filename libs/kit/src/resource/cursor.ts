/**
 * Longest `after` (a list's cursor: docs/adr/0154-cursor-paging-over-the-sort.md) a request may
 * carry: a row's sort values, texts of up to 255 characters among them, in base64url.
 */
export const MAX_AFTER_LENGTH = 4096;
