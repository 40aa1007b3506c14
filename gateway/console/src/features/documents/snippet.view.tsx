/** A search snippet rendered as text and <mark> elements, never as the service's markup (snippet.ts). */
import { snippetParts } from './snippet.ts';

export function Snippet({ html }: { html: string }) {
  return <>{snippetParts(html).map((part, i) => (part.marked ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}</>;
}
