/**
 * How stored bytes may be shown by a browser on the platform's origin (docs/adr/0073-stored-bytes-never-act-on-the-origin.md:
 * "Stored bytes never act on the origin"). A tenant's upload is served by the gateway's origin,
 * where every user's session cookie lives: a page it rendered that could run script would act as
 * whoever opened it. So only types a browser shows without running anything are served inline;
 * every other type is an attachment whatever the signed URL asked, and every answer carrying stored
 * bytes forbids script by its Content-Security-Policy as well. A page of the origin could still
 * load the URL as its own script or stylesheet, which no policy of the file's reaches: types a
 * browser would run or apply that way are never served under their name.
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

/**
 * Types a browser runs or applies when a page on the origin names the URL as a subresource:
 * `<script src>`, a worker, a service worker or a module import take a JavaScript type (WHATWG
 * MIME Sniffing §4.6 lists the aliases; `application/node` is CommonJS's registration), a
 * `<link rel=stylesheet>` or a CSS module `text/css`, WebAssembly's streaming compile
 * `application/wasm`, an XML document's `<?xml-stylesheet?>` the XSLT types, a Speculation-Rules
 * header its JSON type. Sandboxing does not reach these: a subresource runs under the page's policy, not
 * the file's, and the console's `script-src 'self'` admits any script of the origin.
 */
const ACTIVE_TYPES: ReadonlySet<string> = new Set([
  'application/ecmascript',
  'application/javascript',
  'application/x-ecmascript',
  'application/x-javascript',
  'application/node',
  'text/ecmascript',
  'text/javascript',
  'text/jscript',
  'text/livescript',
  'text/x-ecmascript',
  'text/x-javascript',
  'text/css',
  'application/wasm',
  'text/xsl',
  'application/xslt+xml',
  'application/speculationrules+json',
]);
/** Names of script types not in the list (`text/javascript1.5`, `application/javascript+module`, a vendor's `x-` type): active as well. */
const SCRIPT_NAME = /javascript|ecmascript|jscript|livescript/;

/** What an active type is served as: bytes of no type, which with nosniff no browser runs or applies. */
const INERT = 'application/octet-stream';

/** The policy of every stored-bytes answer: no script, no plugin, no form, no request but for the file itself. */
const NO_SCRIPT = "default-src 'none'; img-src 'self'; media-src 'self'; style-src 'unsafe-inline'";

/**
 * The Content-Type a file stored as `mimeType` is served with: its own type (docs/interface.md#files), unless
 * the type is one a browser runs or applies as a subresource of a page on the origin (ACTIVE_TYPES,
 * or any type named like a script) — then `application/octet-stream`, so that with nosniff a
 * `<script src>`, a stylesheet, a worker or an import of the URL is refused. The record keeps its
 * `mimeType`; only the served header changes. Compared on the essence (lower case, no parameters).
 *
 * @example
 * servedType('text/javascript'); // 'application/octet-stream'
 * servedType('image/png');       // 'image/png'
 */
export function servedType(mimeType: string): string {
  const essence = (mimeType.split(';')[0] ?? '').trim().toLowerCase();
  return ACTIVE_TYPES.has(essence) || SCRIPT_NAME.test(essence) ? INERT : mimeType;
}

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
