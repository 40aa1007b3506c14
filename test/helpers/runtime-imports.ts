import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';

/**
 * The modules a process loads, read from the source with the TypeScript compiler API: from an entry
 * file, every import, re-export and `import()` that Node runs (not `import type`, nor an import whose
 * names are all types: those are erased), followed through the repository's own files, the
 * workspaces' `@platform/<name>/…` included.
 */
export interface RuntimeImports {
  /** Every repository file loaded, absolute, with the file that first imported it ('' for the entry). */
  files: Map<string, string>;
  /** Every package specifier outside the repository (`pg`, `node:fs`, `@mikro-orm/core`), with the files importing it. */
  packages: Map<string, Set<string>>;
}

/** The workspaces' package names and the folders their `./*` exports map to (package.json `exports`). */
function workspaceFolders(): Map<string, string> {
  const root = JSON.parse(readFileSync(join(ROOT_DIR, 'package.json'), 'utf8')) as { workspaces: string[] };
  const folders = new Map<string, string>();
  for (const workspace of root.workspaces) {
    const manifest = JSON.parse(readFileSync(join(ROOT_DIR, workspace, 'package.json'), 'utf8')) as { name: string; exports: Record<string, string> };
    const target = manifest.exports['./*'];
    if (target) folders.set(`${manifest.name}/`, join(ROOT_DIR, workspace, target.replace(/\*$/, '')));
  }
  return folders;
}

/** The specifiers of a file that Node loads when it runs it. */
export function runtimeSpecifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!typesOnly(node.importClause)) found.push(node.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      if (!node.isTypeOnly) found.push(node.moduleSpecifier.text);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** `import type { A }` and `import { type A, type B }`: erased. `import {} from 'x'` and `import 'x'` still load x. */
function typesOnly(clause: ts.ImportClause | undefined): boolean {
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return !clause.name && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/**
 * Walks the modules loaded from `entry`.
 *
 * @example
 * const { files, packages } = runtimeImportsFrom(join(ROOT_DIR, 'gateway/src/main.ts'));
 * packages.has('pg') // the gateway loads node-postgres
 */
export function runtimeImportsFrom(entry: string): RuntimeImports {
  const folders = workspaceFolders();
  const files = new Map<string, string>([[entry, '']]);
  const packages = new Map<string, Set<string>>();
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const specifier of runtimeSpecifiersOf(file)) {
      const workspace = [...folders].find(([name]) => specifier.startsWith(name));
      const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : workspace && join(workspace[1], specifier.slice(workspace[0].length));
      if (target === undefined) {
        // a workspace this walk cannot follow would hide what it loads: say so rather than pass
        if (specifier.startsWith('@platform/')) throw new Error(`${file} imports ${specifier}, which no workspace's "./*" export maps`);
        if (!packages.has(specifier)) packages.set(specifier, new Set());
        packages.get(specifier)!.add(file);
      } else if (!files.has(target)) {
        if (!existsSync(target)) throw new Error(`${file} imports ${specifier}, which is not a file: ${target}`);
        files.set(target, file);
        queue.push(target);
      }
    }
  }
  return { files, packages };
}
