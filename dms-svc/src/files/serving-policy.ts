/**
 * How stored bytes may be shown by a browser on the platform's origin (docs/decisions.md, "Files":
 * "Stored bytes never act on the origin"). A tenant's upload is served by the gateway's origin,
 * where every user's session cookie lives: a page it rendered that could run script would act as
 * whoever opened it. So only types a browser shows without running anything are served inline;
 * every other type is an attachment whatever the signed URL asked, and every answer carrying stored
 * bytes forbids script by its Content-Security-Policy as well.
 */

/**
 * The types served inline when the signed URL asks for it (`inline=true`): raster images, PDF
 * (Chromium's and Firefox's viewers run no script of the document on its origin), plain text, and
 * audio and video, which the browser plays in a media document of its own. Not SVG, HTML, XHTML,
 * XML (an XML document may hold XHTML script), nor anything unknown.
 */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/bmp',
  'application/pdf',
  'text/plain',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'audio/flac',
  'audio/aac',
  'audio/mp4',
  'video/mp4',
  'video/webm',
  'video/ogg',
]);

/** The policy of every stored-bytes answer: no script, no plugin, no form, no request but for the file itself. */
const NO_SCRIPT = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";

/**
 * Whether a file of `mimeType` is sent with `Content-Disposition: inline`: only when asked and the
 * type is one of INLINE_TYPES.
 *
 * @example
 * servedInline('application/pdf', true); // true
 * servedInline('text/html', true);       // false: an attachment
 */
export function servedInline(mimeType: string, asked: boolean): boolean {
  return asked && INLINE_TYPES.has(mimeType);
}

/**
 * The headers every answer carrying stored bytes has, beside the download headers of docs/interface.md#files:
 * `Content-Security-Policy` with `sandbox` (an opaque origin: no script, no plugins, no forms, no
 * popups) and `default-src 'none'` (no script even where a browser ignored the sandbox); a media
 * document alone keeps its origin (`allow-same-origin`, still without `allow-scripts`), since its
 * player fetches the file again, with ranges, and an opaque origin's request for it is refused.
 * `Cross-Origin-Resource-Policy: same-site` keeps pages of other sites from pulling the bytes into
 * their process as an image or a media source; `Referrer-Policy: no-referrer` keeps a signed URL
 * from leaving in the Referer of a link followed from the document (a PDF's, a text's).
 */
export function storedBytesHeaders(mimeType: string, inline: boolean): Record<string, string> {
  const media = inline && /^(audio|video)\//.test(mimeType);
  return {
    'Content-Security-Policy': `${media ? 'sandbox allow-same-origin' : 'sandbox'}; ${NO_SCRIPT}`,
    'Cross-Origin-Resource-Policy': 'same-site',
    'Referrer-Policy': 'no-referrer',
  };
}
