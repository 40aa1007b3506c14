/**
 * The restore drill (deploy/README.md "Backup and restore", docs/adr/0091-backup-and-restore.md):
 * on a platform of its own (a fresh database and file folder, so the suite's shared platform is not
 * disturbed), files and a password-guarded share link are made, `npm run backup` runs while a
 * larger upload is in flight, the database's schemas and the files are wiped, `npm run restore`
 * brings them back, and the platform started again serves every file byte for byte, the link with
 * its password, and an intact audit chain.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';
import { scopeSettings } from '@platform/service-kit/db/tenant-scope.ts';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { createFreshDatabase, resolveTestDatabase } from '../scripts/lib/test-database.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import type { Manifest } from '../scripts/lib/backup-manifest.ts';
import { resolveTestRedis, uniquePrefix } from './helpers/redis.ts';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');
/** The permission bits of `path`, in octal as `ls -l` reads them. */
const modeOf = async (path: string): Promise<string> => ((await stat(path)).mode & 0o7777).toString(8).padStart(4, '0');

/** A CLI of scripts/ run with `env`; resolves with its exit code and output, and calls `onLine` for each stdout line. */
function runScript(script: string, args: string[], env: Record<string, string>, onLine: (line: string) => void = () => undefined) {
  const child = spawn(process.execPath, [join(ROOT_DIR, 'scripts', script), ...args], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  createInterface({ input: child.stdout }).on('line', (line) => {
    output += `${line}\n`;
    onLine(line);
  });
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise<{ code: number | null; output: string }>((resolveRun) => child.once('close', (code) => resolveRun({ code, output })));
}

/** A small client of one platform's gateway. */
function client(platform: Platform, apiKey: string) {
  let token = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'x-api-key': apiKey };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const json = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
    return { status: response.status, headers: response.headers, bytes, json };
  };
  return {
    call,
    async login(userCode: string, password: string) {
      const res = await call('POST', '/api/auth/login', { userCode, password, languageCode: 'en' });
      if (res.status !== 200) throw new Error(`login: ${res.status}`);
      token = sessionCookieOf(res.headers.getSetCookie())?.token ?? '';
      return token;
    },
    async upload(crProcessId: number, content: Uint8Array, fileName: string) {
      const form = new FormData();
      form.set('crProcessId', String(crProcessId));
      form.set('file', new Blob([content]), fileName);
      const response = await fetch(`${platform.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      if (response.status !== 200) throw new Error(`upload: ${response.status} ${await response.text()}`);
      return (await response.json()) as { fileId: number; storedFileName: string };
    },
    /**
     * An upload sent in two halves: the second only once `release` is called, so the request is in
     * flight (its bytes partly written) for as long as the caller wants.
     */
    uploadInTwoHalves(crProcessId: number, content: Uint8Array, fileName: string) {
      const boundary = `backup-drill-${randomBytes(8).toString('hex')}`;
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="crProcessId"\r\n\r\n${crProcessId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const half = Math.floor(content.length / 2);
      let release: () => void = () => undefined;
      const released = new Promise<void>((r) => (release = r));
      const parts = [Buffer.concat([head, content.subarray(0, half)]), content.subarray(half), tail];
      let index = 0;
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          if (index === 1) await released;
          if (index < parts.length) controller.enqueue(parts[index++]!);
          else controller.close();
        },
      });
      const done = fetch(`${platform.url}/api/dms-file/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
        duplex: 'half',
      } as RequestInit).then(async (response) => ({ status: response.status, json: (await response.json()) as { fileId: number; storedFileName: string } }));
      return { release, done };
    },
  };
}

test('restore drill: a backup taken during an upload restores onto wiped storage; files, share link with password and audit chain survive', async (t) => {
  const startedAt = Date.now();
  const redis = await resolveTestRedis(process.env);
  const server = await resolveTestDatabase(process.env);
  const database = await createFreshDatabase(server.adminUrl, 'platform_backup', { servingRole: true });
  const workDir = await mkdtemp(join(tmpdir(), 'platform-backup-drill-'));
  const storageDir = join(workDir, 'files');
  const { env, secrets } = throwawayEnv(database.servingUrl, workDir, {
    DATABASE_OWNER_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: uniquePrefix('backup'),
    DMS_STORAGE_DIR: storageDir,
    RATE_LIMIT_API_KEY: '100000',
  });
  const scriptEnv = { PATH: env.PATH!, HOME: env.HOME!, DATABASE_URL: database.servingUrl, DATABASE_OWNER_URL: database.url, DMS_STORAGE_DIR: storageDir };
  const start = () => startPlatform({ env, ports: 'free', log: { file: join(workDir, 'platform.log') } });
  let platform: Platform | undefined = await start();
  try {
    let api = client(platform, secrets.CORE_API_KEY);
    await api.login('admin', secrets.ADMIN_PASSWORD);
    const crProcessId = 7_000_000 + Math.floor(Math.random() * 1_000_000);
    const account = await api.call('POST', '/api/account', { accountNo: uniquePrefix('ACC'), accountName: 'Backup drill', crProcessId });
    t.is(account.status, 200);

    const contents = [randomBytes(1), randomBytes(200_000), Buffer.from('plain text, ğüşçö'), new Uint8Array(0)];
    const files = [];
    for (const [index, content] of contents.entries())
      files.push({ ...(await api.upload(crProcessId, content, `file-${index}.bin`)), sha256: sha256(content) });
    const link = await api.call('POST', '/api/dms-share-link', { crProcessId, fileId: files[1]!.fileId, password: 'drill password' });
    t.is(link.status, 200);
    // a soft-deleted file keeps its bytes until it is purged: the backup keeps them too
    t.is((await api.call('DELETE', `/api/dms-file/${files[2]!.fileId}`)).status, 204);

    // the larger upload is half sent when the backup takes its snapshot, and completes after
    const large = randomBytes(24 * 1024 * 1024);
    const inFlight = api.uploadInTwoHalves(crProcessId, large, 'large.bin');
    const backupDir = join(workDir, 'backup');
    const backup = runScript('backup.ts', [backupDir], scriptEnv, (line) => {
      if (line.includes('snapshot')) inFlight.release();
    });
    const [backedUp, largeUpload] = await Promise.all([backup, inFlight.done]);
    t.is(backedUp.code, 0, backedUp.output);
    t.is(largeUpload.status, 200);

    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
    const inBackup = new Set(manifest.files.map((file) => file.path.replace('files/', '')));
    for (const file of files) t.true(inBackup.has(file.storedFileName), `file ${file.fileId} is in the backup`);
    // its row committed after the snapshot: wholly out, bytes and row alike
    t.false(inBackup.has(largeUpload.json.storedFileName), 'the upload that committed after the snapshot is not in the backup');
    t.false(
      (await readdir(join(backupDir, 'files'))).some((name) => name.startsWith('.')),
      'no temporary is left in the backup',
    );
    t.regex(manifest.snapshotId, /^[0-9A-F]+-[0-9A-F]+-\d+$/);
    t.is(manifest.database.sha256, sha256(await readFile(join(backupDir, 'database.dump'))));
    // a backup holds every record and file: its owner's alone, the folders 0700 and every file 0600
    t.is(await modeOf(backupDir), '0700', 'the backup folder, made by the backup');
    t.is(await modeOf(join(backupDir, 'files')), '0700', 'its files folder');
    t.is(await modeOf(join(backupDir, 'database.dump')), '0600', "pg_dump's dump");
    t.is(await modeOf(join(backupDir, 'manifest.json')), '0600', 'the manifest');
    for (const file of manifest.files) t.is(await modeOf(join(backupDir, file.path)), '0600', file.path);

    // a target that holds data is refused without --force, and left as it was
    const refused = await runScript('restore.ts', [backupDir], scriptEnv);
    t.is(refused.code, 1);
    t.regex(refused.output, /--force/);
    // and with --force, while the platform runs: its sessions would write between the drop and the restore
    const running = await runScript('restore.ts', [backupDir, '--force'], scriptEnv);
    t.is(running.code, 1);
    t.regex(running.output, /stop the platform before a restore/);

    // disaster: the platform stops, the schemas and the files are gone
    await platform.stop();
    platform = undefined;
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query('drop schema core, bpm, dms cascade');
    } finally {
      await admin.end();
    }
    await rm(storageDir, { recursive: true, force: true });

    const restored = await runScript('restore.ts', [backupDir], scriptEnv);
    t.is(restored.code, 0, restored.output);
    t.is(await modeOf(storageDir), '0700', 'the file folder the restore made again');
    for (const name of inBackup) t.is(await modeOf(join(storageDir, name)), '0600', `restored ${name}`);
    const named = new pg.Client({ connectionString: database.url });
    await named.connect();
    try {
      const rows = await named.query<{ stored_file_name: string }>('select stored_file_name from dms.dms_file');
      t.deepEqual(rows.rows.map((row) => row.stored_file_name).sort(), [...inBackup].sort(), "the dump's rows name exactly the manifest's files");
    } finally {
      await named.end();
    }
    // restored as the owner, without the dump's grants: the serving role is granted again by the
    // restore itself, before any service starts (a production service would not grant it)
    t.regex(restored.output, /granted core, bpm, dms again/);
    const serving = new pg.Client({ connectionString: database.servingUrl });
    await serving.connect();
    try {
      // in a transaction scoped to every tenant, as the platform's own path is (the policies hide
      // every tenant's rows from a connection that names none: docs/adr/0151-row-level-security-the-second-wall.md)
      await serving.query('begin');
      for (const [name, value] of Object.entries(scopeSettings({ platform: 'job' }))) await serving.query('select set_config($1, $2, true)', [name, value]);
      const rows = await serving.query<{ count: number }>('select count(*)::int as count from dms.dms_file');
      await serving.query('commit');
      t.is(rows.rows[0]?.count, [...inBackup].length, 'the serving role reads the restored rows');
      const owned = await serving.query<{ owned: number }>(
        `select count(*)::int as owned from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname in ('core', 'bpm', 'dms') and c.relowner = (select oid from pg_roles where rolname = current_user)`,
      );
      t.is(owned.rows[0]?.owned, 0, 'and owns none of them: the owner restored them');
    } finally {
      await serving.end();
    }

    // APP_ENV=test migrates at start: the restore walk's migrate step
    platform = await start();
    api = client(platform, secrets.CORE_API_KEY);
    await api.login('admin', secrets.ADMIN_PASSWORD);
    for (const file of files) {
      const signed = await api.call('GET', `/api/dms-file/${file.fileId}/download-url`);
      if (file === files[2]) {
        t.is(signed.status, 404, 'the soft-deleted file stays deleted');
        continue;
      }
      t.is(signed.status, 200);
      const got = await api.call('GET', signed.json.url as string);
      t.is(got.status, 200);
      t.is(sha256(got.bytes), file.sha256, `file ${file.fileId} downloads byte for byte`);
    }
    t.is((await api.call('GET', `/api/dms-file/${largeUpload.json.fileId}`)).status, 404, 'the upload after the snapshot is not restored');

    const wrong = await api.call('POST', `${link.json.url as string}/validate-password`, { password: 'not it' });
    t.is(wrong.status, 403);
    const right = await api.call('POST', `${link.json.url as string}/validate-password`, { password: 'drill password' });
    t.is(right.status, 200);
    const shared = await api.call('GET', right.json.downloadUrl as string);
    t.is(shared.status, 200);
    t.is(sha256(shared.bytes), files[1]!.sha256, 'the share link serves its file with its password');

    const verified = await api.call('GET', `/api/dms-audit-log/verify?crProcessId=${crProcessId}`);
    t.is(verified.status, 200);
    t.like(verified.json, { intact: true, firstBrokenId: null });
    t.true((verified.json as { checked: number }).checked >= files.length + 3, 'uploads, link, delete and share access are chained');

    // a damaged backup is refused before anything is touched: the platform still serves what it had
    const damaged = join(workDir, 'damaged');
    await cp(backupDir, damaged, { recursive: true });
    const victim = join(damaged, manifest.files.find((file) => file.size > 0)!.path);
    const bytes = await readFile(victim);
    bytes[0] = bytes[0]! ^ 0xff;
    await writeFile(victim, bytes);
    const refusedDamaged = await runScript('restore.ts', [damaged, '--force'], scriptEnv);
    t.is(refusedDamaged.code, 1);
    t.regex(refusedDamaged.output, /does not match the manifest/);
    t.is((await api.call('GET', `/api/dms-file/${files[0]!.fileId}`)).status, 200, 'the database was not touched');

    // a row whose file is missing fails the backup, which leaves no manifest: nothing is left out silently
    const lost = await api.upload(crProcessId, randomBytes(1000), 'lost.bin');
    await rm(join(storageDir, lost.storedFileName));
    const incompleteDir = join(workDir, 'incomplete');
    const incomplete = await runScript('backup.ts', [incompleteDir], scriptEnv);
    t.is(incomplete.code, 1);
    t.true(incomplete.output.includes(lost.storedFileName), incomplete.output);
    t.false(existsSync(join(incompleteDir, 'manifest.json')));

    // retention's purge deletes the row, commits, then removes the bytes: a file the snapshot named may
    // be gone by its copy, and the backup starts over on a snapshot that no longer names it
    const purgedDir = join(workDir, 'purged');
    // the purge's delete is made before the backup starts and committed the moment its snapshot is taken
    const purger = new pg.Client({ connectionString: database.url });
    await purger.connect();
    let purge: Promise<unknown> | undefined;
    let retried;
    try {
      await purger.query('begin');
      await purger.query('delete from dms.dms_file where stored_file_name = $1', [lost.storedFileName]);
      retried = await runScript('backup.ts', [purgedDir], scriptEnv, (line) => {
        if (line.includes('snapshot')) purge ??= purger.query('commit');
      });
      await purge;
    } finally {
      await purger.end();
    }
    t.is(retried.code, 0, retried.output);
    t.regex(retried.output, /purged after the snapshot: starting over/);
    const retriedManifest = JSON.parse(await readFile(join(purgedDir, 'manifest.json'), 'utf8')) as Manifest;
    t.false(retriedManifest.files.some((file) => file.path.endsWith(lost.storedFileName)));
    t.is(retriedManifest.files.length, manifest.files.length);
    t.log(`drill took ${((Date.now() - startedAt) / 1000).toFixed(1)} s`);
  } finally {
    await platform?.stop();
    await database.drop();
    await server.stop();
    await redis.stop();
    await rm(workDir, { recursive: true, force: true });
  }
});
