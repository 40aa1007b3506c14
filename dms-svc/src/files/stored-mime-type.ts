import { open } from 'node:fs/promises';
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';

/** Bytes read from the start of a file for sniffing its type (file-type reads at most this many for most formats). */
export const SNIFF_BYTES = 4100;

/** A part's Content-Type that can be kept: `type/subtype`, no parameters. */
const MEDIA_TYPE = /^[\w.+-]+\/[\w.+-]+$/;
const UNKNOWN = 'application/octet-stream';
/** Types file-type recognises by a signature the format does not require: XML's declaration is optional. */
const SIGNATURE_OPTIONAL: ReadonlySet<string> = new Set(['application/xml']);
/** The types file-type checks a signature for. */
const SIGNED_TYPES: ReadonlySet<string> = supportedMimeTypes;

/**
 * The `mimeType` kept for an upload (docs/interface.md#files, docs/adr/0031-upload.md), from the file's
 * first bytes `head` and the part's declared `partType`: the type file-type recognises in the
 * content; else the declared type, unless it is one file-type knows the signature of (and the
 * format requires it) — content of that type would have been recognised, so the claim is false
 * (text declared `application/pdf`) and the file is `application/octet-stream`; a part without a
 * usable type is `application/octet-stream` too. The tenant's `allowedMimeTypes` judges what this
 * returns.
 *
 * @example
 * await storedMimeType(Buffer.from('%PDF-1.4 ...'), 'text/plain');      // 'application/pdf'
 * await storedMimeType(Buffer.from('plain words'), 'application/pdf'); // 'application/octet-stream'
 * await storedMimeType(Buffer.from('plain words'), 'text/plain');      // 'text/plain'
 */
export async function storedMimeType(head: Uint8Array, partType: string): Promise<string> {
  const sniffed = await fileTypeFromBuffer(head).catch(() => undefined);
  if (sniffed) return sniffed.mime;
  const declared = partType.toLowerCase();
  if (!MEDIA_TYPE.test(declared) || (SIGNED_TYPES.has(declared) && !SIGNATURE_OPTIONAL.has(declared))) return UNKNOWN;
  return declared;
}

/** `storedMimeType` of a file on the disk of `size` bytes: its first SNIFF_BYTES read for the sniffing. */
export async function storedMimeTypeOfFile(path: string, size: number, partType: string): Promise<string> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(Math.min(size, SNIFF_BYTES));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return await storedMimeType(buffer.subarray(0, bytesRead), partType);
  } finally {
    await handle.close();
  }
}
