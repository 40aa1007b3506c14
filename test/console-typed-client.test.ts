/**
 * The console reaches the platform through its typed client only (gateway/console/src/shell/api.ts,
 * openapi-fetch over the API document's generated paths): no other module calls fetch or opens an
 * XMLHttpRequest, but the two that need what the client cannot give, each named here with why.
 * Read with the TypeScript compiler API, so a comment or a string naming `fetch` does not count.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import ts from 'typescript';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

const SRC = join(ROOT_DIR, 'gateway/console/src');

const RAW_CALLERS: Record<string, string> = {
  // fetch reports no upload progress; the answer is typed by the document's DmsFileUploaded
  'features/documents/upload.request.ts': 'XMLHttpRequest',
  // a HEAD of a signed download URL the platform gave, read for its headers (name, size)
  'features/share-public/share-link.probe.ts': 'fetch',
};

/** Each `fetch(…)`, `globalThis.fetch(…)` and `new XMLHttpRequest()` of a file, by name. */
function rawCalls(file: string): string[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const named = (node: ts.Expression): string | undefined =>
    ts.isIdentifier(node) ? node.text : ts.isPropertyAccessExpression(node) ? node.name.text : undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && named(node.expression) === 'fetch') found.push('fetch');
    if (ts.isNewExpression(node) && named(node.expression) === 'XMLHttpRequest') found.push('XMLHttpRequest');
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('no console module calls fetch or XMLHttpRequest but through the typed client, except the two named', (t) => {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts'));
  const found = Object.fromEntries(
    files.flatMap((name) => {
      const calls = [...new Set(rawCalls(join(SRC, name)))];
      return calls.length > 0 ? [[relative(SRC, join(SRC, name)), calls.join(', ')]] : [];
    }),
  );
  t.true(files.length > 50, 'the console sources were read');
  t.deepEqual(found, RAW_CALLERS);
});

test('the typed client is the only module that creates one', (t) => {
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter((name) => /\.tsx?$/.test(name));
  const importers = files.filter((name) => /from 'openapi-fetch'/.test(readFileSync(join(SRC, name), 'utf8')));
  t.deepEqual(importers, ['shell/api.ts']);
});
