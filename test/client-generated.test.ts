/**
 * The typed client (libs/client) follows the API document: its generated files are what the document
 * the gateway serves generates, and every schema of that document is a type of the client by name.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { OpenAPI3 } from 'openapi-typescript';
import ts from 'typescript';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { CLIENT_SRC, clientFiles } from '../scripts/client-gen.ts';
import { api } from './helpers/platform.ts';

async function servedDocument(): Promise<OpenAPI3> {
  const res = await api<OpenAPI3>('GET', '/api/docs/openapi.json');
  if (res.status !== 200) throw new Error(`GET /api/docs/openapi.json: ${res.status} ${res.text}`);
  return res.body;
}

/** The first line where two texts part, to point at without printing either whole. */
function firstDifference(committed: string, fresh: string): string {
  const a = committed.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(a[at] ?? '(end)')}, generated ${JSON.stringify(b[at] ?? '(end)')}`;
}

test('the committed client is what the served API document generates (else run npm run client:gen)', async (t) => {
  const files = await clientFiles(await servedDocument());
  t.deepEqual([...files.keys()].sort(), ['operation-credentials.ts', 'schema.d.ts']);
  for (const [name, fresh] of files) {
    const committed = readFileSync(join(CLIENT_SRC, name), 'utf8');
    t.true(
      committed === fresh,
      `libs/client/src/${name} differs from what GET /api/docs/openapi.json generates: run npm run client:gen (${firstDifference(committed, fresh)})`,
    );
  }
});

test('every schema of the served document is a type of the client of the same name, equal to its components entry', async (t) => {
  const names = Object.keys((await servedDocument()).components?.schemas ?? {});
  t.true(names.includes('Branch') && names.includes('BranchCreate') && names.includes('ErrorBody'), names.join(', '));
  // A name the document lacks must fail the same check, or the check proves nothing.
  const control = 'NoSuchSchemaInTheDocument';
  const source = [
    `import type * as Client from ${JSON.stringify(join(CLIENT_SRC, 'index.ts'))};`,
    'type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;',
    ...[...names, control].map((name, i) => `export const same${i}: Same<Client.${name}, Client.components['schemas']['${name}']> = true;`),
  ].join('\n');
  const dir = mkdtempSync(join(tmpdir(), 'client-names-'));
  try {
    const file = join(dir, 'names.mts'); // an ES module outside any package.json
    writeFileSync(file, source);
    const config = ts.getParsedCommandLineOfConfigFile(
      join(ROOT_DIR, 'tsconfig.json'),
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
    if (!config) return t.fail('tsconfig.json did not parse');
    const program = ts.createProgram([file], config.options);
    const errors = ts
      .getPreEmitDiagnostics(program, program.getSourceFile(file))
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
    t.is(errors.length, 2, errors.join('\n')); // the control: no such export, and no such schema
    t.true(
      errors.every((message) => message.includes(control)),
      errors.join('\n'),
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
