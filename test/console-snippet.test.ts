/**
 * A search snippet as the console reads it (gateway/console/src/features/documents/snippet.ts): the
 * service sends "SAFE HTML in which the matched words are wrapped in <mark>…</mark> and every other
 * character is already escaped" (dms-svc/src/text/search-text.ts `markedHtml`), and the console
 * trusts none of its markup all the same: it splits on the two exact tokens, un-escapes the five
 * entities the service writes and nothing else, and renders parts as text. Checked against the
 * service's own escaping, so the two cannot drift apart unnoticed.
 */
import test from 'ava';
import { markedHtml } from '../dms-svc/src/text/search-text.ts';
import { snippetParts } from '../gateway/console/src/features/documents/snippet.ts';

const START = '\u0002';
const STOP = '\u0003';

test('the service’s passage comes back as the characters it was, the matches marked', (t) => {
  const passage = `Delivery ${START}warehouse${STOP} <img src=x onerror=alert(1)> & "quoted" 'words' > ${START}end${STOP}`;
  t.deepEqual(snippetParts(markedHtml(passage)), [
    { text: 'Delivery ', marked: false },
    { text: 'warehouse', marked: true },
    { text: ` <img src=x onerror=alert(1)> & "quoted" 'words' > `, marked: false },
    { text: 'end', marked: true },
  ]);
});

test('text that looked like an entity or a mark in the file stays as it was written', (t) => {
  for (const written of ['&#60;mark&#62;', '&amp; &lt;b&gt;', '<mark>not found</mark>', '&#38;#60;', 'sözleşme İş']) {
    t.deepEqual(
      snippetParts(markedHtml(written)).map((part) => part.text),
      [written],
      written,
    );
    t.false(
      snippetParts(markedHtml(written)).some((part) => part.marked),
      `${written}: nothing marked`,
    );
  }
});

test('markup other than the two tokens is never a part of its own, and a stray token marks no more than it says', (t) => {
  t.deepEqual(snippetParts('a <b>bold</b> <mark>x</mark>'), [
    { text: 'a <b>bold</b> ', marked: false },
    { text: 'x', marked: true },
  ]);
  t.deepEqual(snippetParts('</mark>a<mark>b'), [
    { text: 'a', marked: false },
    { text: 'b', marked: true },
  ]);
  t.deepEqual(snippetParts(''), []);
  t.deepEqual(snippetParts('&#38;&#60;&#62;&#34;&#39;&#40;'), [{ text: `&<>"'&#40;`, marked: false }]);
});
