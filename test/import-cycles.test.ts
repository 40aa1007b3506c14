/**
 * The folders of libs/src import one another without a cycle, and libs imports no service and not
 * the gateway: a folder that imports another and is imported back cannot be read, tested or moved
 * on its own. Import specifiers are read with the TypeScript compiler API (no build, `.ts`
 * extensions as Node runs them); cycles are the strongly connected components of the folder graph.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '@platform/libs/config/config.ts';
import { specifiersOf, tsFiles } from './helpers/module-specifiers.ts';

const LIBS_SRC = join(ROOT_DIR, 'libs/src');
const WORKSPACES = ['core-svc', 'bpm-svc', 'dms-svc', 'gateway'];

/** The absolute path a specifier names, when it names a file of this repository. */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  if (specifier.startsWith('@platform/libs/')) return join(LIBS_SRC, specifier.slice('@platform/libs/'.length));
  return undefined;
}

/** The top folder under libs/src a path lies in ('' for a file at its root). */
function folderOf(path: string): string | undefined {
  const rel = relative(LIBS_SRC, path);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(sep);
  return parts.length > 1 ? parts[0] : '';
}

/** Tarjan's strongly connected components with more than one folder, each sorted. */
function cycles(graph: Map<string, Set<string>>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

const files = tsFiles(LIBS_SRC).filter((file) => folderOf(file) !== 'gen');

test('no folder of libs/src imports a folder that imports it back', (t) => {
  const graph = new Map<string, Set<string>>();
  const edges: string[] = [];
  for (const file of files) {
    const from = folderOf(file)!;
    for (const specifier of specifiersOf(file)) {
      const target = targetOf(file, specifier);
      const to = target === undefined ? undefined : folderOf(target);
      if (to === undefined || to === from) continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
      edges.push(`${relative(LIBS_SRC, file)} -> ${to}/`);
    }
  }
  const found = cycles(graph);
  // Name each pair of folders that import each other, with the imports on both sides, then any
  // longer cycle the pairs do not explain (a strongly connected component lists them merged).
  const pairs = [...graph].flatMap(([a, targets]) => [...targets].filter((b) => a < b && graph.get(b)?.has(a)).map((b) => [a, b]));
  const detail = [
    ...pairs.map(([a, b]) => {
      const inside = edges.filter((edge) => (edge.startsWith(`${a}/`) ? edge.endsWith(` -> ${b}/`) : edge.startsWith(`${b}/`) && edge.endsWith(` -> ${a}/`)));
      return `${a} <-> ${b}:\n  ${[...new Set(inside)].join('\n  ')}`;
    }),
    ...found.map((component) => `cycle through ${component.join(', ')}`),
  ];
  t.true(graph.size > 3, 'the folder graph was read');
  t.deepEqual(found, [], detail.join('\n'));
});

test('libs imports no service and not the gateway', (t) => {
  const crossing = files.flatMap((file) =>
    specifiersOf(file)
      .filter((specifier) => {
        const target = targetOf(file, specifier);
        const rel = target === undefined ? specifier : relative(ROOT_DIR, target);
        return WORKSPACES.some((name) => rel === name || rel.startsWith(`${name}/`) || rel.startsWith(`@platform/${name}`));
      })
      .map((specifier) => `${relative(ROOT_DIR, file)} imports ${specifier}`),
  );
  t.true(files.length > 20, 'the files of libs/src were read');
  t.deepEqual(crossing, []);
});
