/**
 * The folders of the kits (libs/kit/src, libs/service-kit/src) import one another without a cycle,
 * the kit imports nothing of the service kit, and neither imports a service or the gateway: a folder that imports another and is imported back cannot be read, tested or moved
 * on its own. Import specifiers are read with the TypeScript compiler API (no build, `.ts`
 * extensions as Node runs them); cycles are the strongly connected components of the folder graph.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { specifiersOf, tsFiles } from './helpers/module-specifiers.ts';

/** Each kit's name and source folder. */
const KITS: Record<string, string> = { kit: join(ROOT_DIR, 'libs/kit/src'), 'service-kit': join(ROOT_DIR, 'libs/service-kit/src') };
const WORKSPACES = ['core-svc', 'bpm-svc', 'dms-svc', 'gateway'];

/** The absolute path a specifier names, when it names a file of this repository. */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  const kit = Object.keys(KITS).find((name) => specifier.startsWith(`@platform/${name}/`));
  return kit === undefined ? undefined : join(KITS[kit]!, specifier.slice(`@platform/${kit}/`.length));
}

/** The kit and top folder of its src/ a path lies in (`service-kit/crud`; `kit/` for a file at its root). */
function folderOf(path: string): string | undefined {
  for (const [name, src] of Object.entries(KITS)) {
    const rel = relative(src, path);
    if (rel.startsWith('..')) continue;
    const parts = rel.split(sep);
    return `${name}/${parts.length > 1 ? parts[0] : ''}`;
  }
  return undefined;
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

const files = Object.values(KITS)
  .flatMap((src) => tsFiles(src))
  .filter((file) => folderOf(file) !== 'kit/gen');

test('no folder of the kits imports a folder that imports it back', (t) => {
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
      edges.push(`${from}/${relative(join(ROOT_DIR, 'libs', from), file)} -> ${to}/`);
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

test('the kits import no service and not the gateway, and the kit nothing of the service kit', (t) => {
  const crossing = files.flatMap((file) =>
    specifiersOf(file)
      .filter((specifier) => {
        const target = targetOf(file, specifier);
        const rel = target === undefined ? specifier : relative(ROOT_DIR, target);
        const serviceSide = folderOf(file)!.startsWith('kit/') && (specifier.startsWith('@platform/service-kit') || rel.startsWith('libs/service-kit/'));
        return serviceSide || WORKSPACES.some((name) => rel === name || rel.startsWith(`${name}/`) || rel.startsWith(`@platform/${name}`));
      })
      .map((specifier) => `${relative(ROOT_DIR, file)} imports ${specifier}`),
  );
  t.true(files.length > 20, 'the files of the kits were read');
  t.deepEqual(crossing, []);
});
