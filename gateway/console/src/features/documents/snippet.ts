/**
 * A search snippet as parts of text, some marked. The service sends the passages as HTML in which
 * the words found are wrapped in `<mark>` and every other character is escaped (dms-svc/src/text/
 * search-text.ts `markedHtml`); the console trusts no markup of it all the same: it splits on the two
 * exact tokens `<mark>` and `</mark>`, un-escapes the five entities the service writes and nothing
 * else, and renders the parts as text, so anything else that looks like markup shows as characters.
 */
export interface SnippetPart {
  text: string;
  marked: boolean;
}

const ENTITIES: Readonly<Record<string, string>> = { '&#38;': '&', '&#60;': '<', '&#62;': '>', '&#34;': '"', '&#39;': "'" };

/** The five entities the service writes, back to their characters, in one pass (`&#38;#60;` stays `&#60;`). */
function unescaped(text: string): string {
  return text.replace(/&#(?:38|60|62|34|39);/g, (entity) => ENTITIES[entity] ?? entity);
}

/**
 * @example
 * snippetParts('the <mark>warehouse</mark> &#38; co') // [{ text: 'the ', marked: false }, { text: 'warehouse', marked: true }, { text: ' & co', marked: false }]
 */
export function snippetParts(html: string): SnippetPart[] {
  const parts: SnippetPart[] = [];
  let marked = false;
  for (const piece of html.split(/(<mark>|<\/mark>)/)) {
    if (piece === '<mark>') marked = true;
    else if (piece === '</mark>') marked = false;
    else if (piece !== '') parts.push({ text: unescaped(piece), marked });
  }
  return parts;
}
