/**
 * Backup and restore with the files in an S3 bucket (DMS_STORAGE=s3, docs/adr/0091-backup-and-restore.md,
 * docs/adr/0144-files-on-s3-compatible-storage.md): a platform of the test's own on a fresh database,
 * its files in a bucket of a real S3 server (OpenStack Swift: helpers/swift.ts). The backup copies
 * the objects the snapshot's rows name into the backup folder, listed with their SHA-256 in the
 * manifest; a restore onto a wiped bucket puts them back, removes objects no restored row names,
 * and reads every one back; the files then download byte for byte. A row whose object is missing
 * fails the backup.
 */
import test from 'ava';
import { spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { DeleteObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { sessionCookieOf } from '@platform/kit/auth/request-token.ts';
import { type Platform, startPlatform } from '../scripts/lib/processes.ts';
import { ROOT_DIR } from '../scripts/lib/platform-layout.ts';
import { createFreshDatabase, resolveTestDatabase } from '../scripts/lib/test-database.ts';
import { throwawayEnv } from '../scripts/lib/throwaway-env.ts';
import type { Manifest } from '../scripts/lib/backup-manifest.ts';
import { resolveTestRedis, uniquePrefix } from './helpers/redis.ts';
import { startSwift } from './helpers/swift.ts';

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

/** A CLI of scripts/ run with `env`; resolves with its exit code and output. */
function runScript(script: string, args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [join(ROOT_DIR, 'scripts', script), ...args], { cwd: ROOT_DIR, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return new Promise<{ code: number | null; output: string }>((resolveRun) => child.once('close', (code) => resolveRun({ code, output })));
}

test('on S3: a backup lists the objects in its manifest; a restore onto a wiped bucket puts them back, removes strays, and the files download byte for byte', async (t) => {
  const redis = await resolveTestRedis(process.env);
  const server = await resolveTestDatabase(process.env);
  const database = await createFreshDatabase(server.adminUrl, 'platform_backup_s3', { servingRole: true });
  const workDir = await mkdtemp(join(tmpdir(), 'platform-backup-s3-'));
  const swift = await startSwift();
  const { env, secrets } = throwawayEnv(database.servingUrl, workDir, {
    DATABASE_OWNER_URL: database.url,
    REDIS_URL: redis.url,
    REDIS_KEY_PREFIX: uniquePrefix('backup-s3'),
    RATE_LIMIT_API_KEY: '100000',
    ...swift.env,
  });
  const scriptEnv = { PATH: env.PATH!, HOME: env.HOME!, DATABASE_URL: database.servingUrl, DATABASE_OWNER_URL: database.url, ...swift.env };
  const keys = async () => ((await swift.client.send(new ListObjectsV2Command({ Bucket: swift.bucket }))).Contents ?? []).map((o) => o.Key ?? '').sort();
  const start = () => startPlatform({ env, ports: 'free', log: { file: join(workDir, 'platform.log') } });
  let platform: Platform | undefined = await start();
  let token = '';
  const call = async (method: string, path: string, body?: unknown) => {
    const headers: Record<string, string> = { 'x-api-key': secrets.CORE_API_KEY };
    if (token) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${platform!.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const bytes = new Uint8Array(await response.arrayBuffer());
    const json = response.headers.get('content-type')?.includes('application/json') ? JSON.parse(Buffer.from(bytes).toString('utf8')) : undefined;
    return { status: response.status, headers: response.headers, bytes, json };
  };
  const login = async () => {
    token = '';
    const res = await call('POST', '/api/auth/login', { userCode: 'admin', password: secrets.ADMIN_PASSWORD, languageCode: 'en' });
    token = sessionCookieOf(res.headers.getSetCookie())?.token ?? '';
  };
  try {
    await login();
    const crProcessId = 8_000_000 + Math.floor(Math.random() * 1_000_000);
    t.is((await call('POST', '/api/account', { accountNo: uniquePrefix('ACC'), accountName: 'Backup on S3', crProcessId })).status, 200);
    const upload = async (content: Uint8Array, fileName: string) => {
      const form = new FormData();
      form.set('crProcessId', String(crProcessId));
      form.set('file', new Blob([content]), fileName);
      const response = await fetch(`${platform!.url}/api/dms-file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      if (response.status !== 200) throw new Error(`upload: ${response.status} ${await response.text()}`);
      return { ...((await response.json()) as { fileId: number; storedFileName: string }), sha256: sha256(content) };
    };
    // one byte, more than one multipart part, nothing; the last soft-deleted (its bytes stay until the purge)
    const files = [
      await upload(randomBytes(1), 'one.bin'),
      await upload(randomBytes(9 * 1024 * 1024 + 3), 'parts.bin'),
      await upload(new Uint8Array(0), 'empty.bin'),
    ];
    t.is((await call('DELETE', `/api/dms-file/${files[2]!.fileId}`)).status, 204);

    const backupDir = join(workDir, 'backup');
    const backedUp = await runScript('backup.ts', [backupDir], scriptEnv);
    t.is(backedUp.code, 0, backedUp.output);
    const manifest = JSON.parse(await readFile(join(backupDir, 'manifest.json'), 'utf8')) as Manifest;
    t.deepEqual(
      manifest.files.map((file) => [file.path, file.sha256]).sort(),
      files.map((file) => [`files/${file.storedFileName}`, file.sha256]).sort(),
      'every object a row names, with its SHA-256',
    );
    for (const file of manifest.files) t.is(sha256(await readFile(join(backupDir, file.path))), file.sha256);

    // a bucket that holds files (and a database with tables) is replaced only with --force
    const refused = await runScript('restore.ts', [backupDir], scriptEnv);
    t.is(refused.code, 1);
    t.regex(refused.output, /the bucket platform-files holds 3 file\(s\)/);

    // disaster: the platform stops, the schemas and the objects are gone; a stray object no row will name
    await platform.stop();
    platform = undefined;
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query('drop schema core, bpm, dms cascade');
    } finally {
      await admin.end();
    }
    for (const key of await keys()) await swift.client.send(new DeleteObjectCommand({ Bucket: swift.bucket, Key: key }));
    const stray = randomUUID();
    await swift.client.send(new PutObjectCommand({ Bucket: swift.bucket, Key: stray, Body: 'no restored row names me' }));

    const restored = await runScript('restore.ts', [backupDir, '--force'], scriptEnv);
    t.is(restored.code, 0, restored.output);
    t.regex(restored.output, /3 file\(s\) restored into the bucket platform-files/);
    t.regex(restored.output, /every restored file matches its SHA-256; 1 file\(s\) of the replaced data removed/);
    t.deepEqual(await keys(), files.map((file) => file.storedFileName).sort(), 'exactly the backup’s objects, the stray removed');

    platform = await start();
    await login();
    for (const file of files.slice(0, 2)) {
      const signed = await call('GET', `/api/dms-file/${file.fileId}/download-url`);
      t.is(signed.status, 200);
      const got = await call('GET', signed.json.url as string);
      t.is(got.status, 200);
      t.is(sha256(got.bytes), file.sha256, `file ${file.fileId} downloads byte for byte`);
    }
    t.is((await call('GET', `/api/dms-file/${files[2]!.fileId}/download-url`)).status, 404, 'the soft-deleted file stays deleted');

    // a row whose object is missing fails the backup, which leaves no manifest
    await swift.client.send(new DeleteObjectCommand({ Bucket: swift.bucket, Key: files[0]!.storedFileName }));
    const incompleteDir = join(workDir, 'incomplete');
    const incomplete = await runScript('backup.ts', [incompleteDir], scriptEnv);
    t.is(incomplete.code, 1);
    t.true(incomplete.output.includes(files[0]!.storedFileName), incomplete.output);
    t.false(existsSync(join(incompleteDir, 'manifest.json')));
  } finally {
    await platform?.stop();
    await swift.stop();
    await database.drop();
    await server.stop();
    await redis.stop();
    await rm(workDir, { recursive: true, force: true });
  }
});
