import { open } from 'node:fs/promises';

/** The types whose bytes are their text: read as UTF-8, as they are. */
export const PLAIN_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/csv', 'text/markdown', 'text/tab-separated-values']);

/** The first `maxChars` characters of a text file (at most four bytes each are read), as UTF-8, malformed bytes replaced. */
export async function readPlain(path: string, maxChars: number): Promise<{ text: string; truncated: boolean }> {
  const file = await open(path);
  try {
    const { size } = await file.stat();
    const buffer = Buffer.alloc(Math.min(maxChars * 4, size));
    const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
    const text = new TextDecoder('utf-8', { fatal: false }).decode(buffer.subarray(0, bytesRead));
    return { text, truncated: bytesRead < size };
  } finally {
    await file.close();
  }
}
