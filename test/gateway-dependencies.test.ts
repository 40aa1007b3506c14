/**
 * The gateway depends on no service: it reads the services' declarations from the contracts package
 * (libs/contracts), so it is built, tested and deployed without a service's code. Its imports are
 * followed from every file of gateway/src through the repository's own modules (relative paths and
 * `@platform/*` workspace packages, read with the TypeScript compiler API), so a service reached
 * through a library or the contracts is found too; and its package.json names no service package.
 * What npm installs for it holds no database driver, ORM or bcrypt: those are the service kit's.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import test from 'ava';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { specifiersOf, tsFiles } from './helpers/module-specifiers.ts';

const SERVICES = ['core-svc', 'bpm-svc', 'dms-svc'];

/** The source folder of each workspace package, by its name. */
const PACKAGES: Record<string, string> = {
  '@platform/kit': 'libs/kit/src',
  '@platform/service-kit': 'libs/service-kit/src',
  '@platform/contracts': 'libs/contracts/src',
  '@platform/gateway': 'gateway/src',
  ...Object.fromEntries(SERVICES.map((name) => [`@platform/${name}`, `${name}/src`])),
};

/** The file a specifier names when it is one of the repository's own modules (a `.ts` file). */
function targetOf(file: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return resolve(dirname(file), specifier);
  const [scope, name, ...rest] = specifier.split('/');
  const dir = PACKAGES[`${scope}/${name}`];
  return dir === undefined ? undefined : join(ROOT_DIR, dir, ...rest);
}

/** Each service module the files reach, with the chain of imports that reaches it. */
function serviceImports(roots: readonly string[]): string[] {
  const via = new Map<string, string | undefined>(roots.map((file) => [file, undefined]));
  const queue = [...roots];
  const found: string[] = [];
  const chainOf = (file: string): string[] => {
    const chain: string[] = [];
    for (let at: string | undefined = file; at !== undefined; at = via.get(at)) chain.unshift(relative(ROOT_DIR, at));
    return chain;
  };
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const specifier of specifiersOf(file)) {
      const service = SERVICES.find((name) => specifier === `@platform/${name}` || specifier.startsWith(`@platform/${name}/`));
      const target = targetOf(file, specifier);
      const inService = target !== undefined && SERVICES.some((name) => relative(join(ROOT_DIR, name), target).split('/')[0] !== '..');
      if (service !== undefined || inService) {
        found.push([...chainOf(file), specifier].join(' -> '));
        continue;
      }
      if (target === undefined || !target.endsWith('.ts') || via.has(target)) continue;
      via.set(target, file);
      queue.push(target);
    }
  }
  return found;
}

test('no gateway module imports a service package, directly or through the modules it imports', (t) => {
  const roots = tsFiles(join(ROOT_DIR, 'gateway/src'));
  t.true(roots.length > 40, `the files of gateway/src were read (${roots.length})`);
  t.deepEqual(serviceImports(roots), []);
});

test('the contracts package imports no service and not the gateway', (t) => {
  const roots = tsFiles(join(ROOT_DIR, 'libs/contracts/src'));
  t.true(roots.length >= 26, `the declarations were read (${roots.length})`);
  t.deepEqual(serviceImports(roots), []);
  const gateway = roots.flatMap((file) =>
    specifiersOf(file).filter(
      (specifier) => specifier.startsWith('@platform/gateway') || (targetOf(file, specifier) ?? '').startsWith(join(ROOT_DIR, 'gateway')),
    ),
  );
  t.deepEqual(gateway, []);
});

test('the walk finds a service import when there is one', (t) => {
  // a service's own entry point imports its package's modules: the walk must report them
  const found = serviceImports([join(ROOT_DIR, 'bpm-svc/src/server.ts')]);
  t.true(found.length > 0, 'bpm-svc/src/server.ts reaches bpm-svc modules');
});

test("the gateway's package.json depends on no service package, and on the contracts", (t) => {
  const manifest = JSON.parse(readFileSync(join(ROOT_DIR, 'gateway/package.json'), 'utf8')) as Record<string, Record<string, string> | undefined>;
  const named = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'].flatMap((field) => Object.keys(manifest[field] ?? {}));
  t.deepEqual(
    named.filter((name) => SERVICES.some((service) => name === `@platform/${service}`)),
    [],
  );
  t.true(named.includes('@platform/contracts'));
});

/** A package the gateway must not install: the database driver, the ORM, bcrypt. */
const SERVICE_SIDE = /^(pg|bcrypt|@mikro-orm\/.+)$/;

interface LsNode {
  dependencies?: Record<string, LsNode>;
  /** In node_modules, but no manifest asks for it: npm lists such a package in any workspace's tree. */
  extraneous?: boolean;
}

/** Every package in a tree of `npm ls --json`, each with the chain that installs it. */
function installed(tree: Record<string, LsNode> | undefined, via: string[] = [], found = new Map<string, string>()): Map<string, string> {
  for (const [name, node] of Object.entries(tree ?? {})) {
    const chain = [...via, name];
    if (!found.has(name)) found.set(name, chain.join(' -> '));
    installed(node.dependencies, chain, found);
  }
  return found;
}

test("the gateway's installed dependencies hold no pg, MikroORM or bcrypt (npm ls of its workspace)", (t) => {
  // by name: the path `gateway` would take in gateway/console, a workspace of its own
  const ls = spawnSync('npm', ['ls', '--workspace', '@platform/gateway', '--all', '--json'], { cwd: ROOT_DIR, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  t.is(ls.status, 0, ls.stderr);
  const root = JSON.parse(ls.stdout) as LsNode;
  // (a package left in node_modules that nothing installs, e.g. by an install script of the root's
  // own devDependencies, is listed at the top whatever the workspace: it is no one's dependency)
  const listed = Object.entries(root.dependencies ?? {}).filter(([, node]) => node.extraneous !== true);
  t.deepEqual(
    listed.map(([name]) => name),
    ['@platform/gateway'],
    'the gateway workspace alone',
  );
  const packages = installed(Object.fromEntries(listed));
  t.true(packages.has('express') && packages.size > 100, `${packages.size} packages read`);
  t.deepEqual(
    [...packages].filter(([name]) => SERVICE_SIDE.test(name)).map(([, chain]) => chain),
    [],
  );
});
