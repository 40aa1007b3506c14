/**
 * What the file scenarios share (file-transfer, file-storage-s3, tus-upload): the source file of a
 * run, a transfer timed with the watched processes' CPU and RSS, and the signed download read as
 * cheaply as the load generator can.
 */
import { createHash, createHmac } from 'node:crypto';
import { readFileSync, statfsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ResponseHeadReader } from '../../gateway/src/relay/response-head.ts';
import { cpuSnapshot, cpuUsed } from './cpu.ts';
import { generateFile, MIB } from './file-upload.ts';
import { fmt } from './output.ts';
import { BenchError, onCleanup, settingsFromEnv } from './scenario.ts';

/** The file a scenario sends, in a temporary folder of its own (removed at the end). */
export interface SourceFile {
  rounds: number;
  /** Its size in MiB (BENCH_FILE_MIB) and in bytes. */
  mib: number;
  size: number;
  workDir: string;
  path: string;
  sha256: string;
}

/**
 * BENCH_ROUNDS (at least 2: the scenarios alternate their targets) and BENCH_FILE_MIB (1024: exactly
 * 1 GiB, which the default DMS_MAX_UPLOAD_BYTES admits); a temporary folder named after `name` with
 * room for `copies` files of that size, and the source generated in it (generateFile).
 */
export async function sourceFile(name: string, copies: number): Promise<SourceFile> {
  const { rounds } = settingsFromEnv();
  if (rounds < 2) throw new BenchError(`BENCH_ROUNDS=${rounds}: this scenario alternates its targets over at least 2 rounds`);
  const mib = Number(process.env.BENCH_FILE_MIB ?? 1024);
  if (!Number.isInteger(mib) || mib < 1) throw new BenchError(`BENCH_FILE_MIB=${process.env.BENCH_FILE_MIB}: expected a whole number >= 1`);
  const size = mib * MIB;
  const workDir = await mkdtemp(join(tmpdir(), `${name}-`));
  onCleanup(() => rm(workDir, { recursive: true, force: true }));
  const fs = statfsSync(workDir);
  const free = fs.bavail * fs.bsize;
  if (free < copies * size) throw new BenchError(`${fmt(free / MIB)} MiB free under ${workDir}: the scenario needs about ${fmt((copies * size) / MIB)} MiB`);
  const path = join(workDir, 'source.bin');
  const generated = Date.now();
  const sha256 = await generateFile(path, mib);
  console.log(`# source: ${fmt(mib)} MiB (${fmt(size)} bytes) in ${path}, sha256 ${sha256}, written in ${fmt((Date.now() - generated) / 1000, 1)} s`);
  return { rounds, mib, size, workDir, path, sha256 };
}

/** One transfer's figures. */
export interface Transfer {
  /** 10^6 bytes per second. */
  mbPerSec: number;
  seconds: number;
  /** RSS growth in bytes (peak during the transfer minus just before), per watched process. */
  rssGrowth: Record<string, number>;
  rssBefore: Record<string, number>;
  /** CPU seconds used during the transfer, per watched process and the bench client. */
  cpuSeconds: Record<string, number>;
}

const RSS_SAMPLE_MS = 100;

/** VmRSS of a process in bytes (NaN when gone). */
export function rssOf(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? NaN : Number(kb) * 1024;
  } catch {
    return NaN;
  }
}

/**
 * Runs `work`, a transfer of `bytes`, timing it, sampling the RSS of the watched processes every
 * 100 ms (/proc/<pid>/status VmRSS) and counting each one's CPU (/proc utime + stime).
 */
export async function timedTransfer<T>(pids: Record<string, number>, bytes: number, work: () => Promise<T>): Promise<{ transfer: Transfer; answer: T }> {
  const rssBefore: Record<string, number> = {};
  const peak: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) peak[name] = rssBefore[name] = rssOf(pid);
  const sample = (): void => {
    for (const [name, pid] of Object.entries(pids)) peak[name] = Math.max(peak[name] ?? 0, rssOf(pid));
  };
  const timer = setInterval(sample, RSS_SAMPLE_MS);
  const cpuBefore = cpuSnapshot(pids);
  const started = process.hrtime.bigint();
  let answer: T;
  try {
    answer = await work();
  } finally {
    clearInterval(timer);
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const cpuSeconds = Object.fromEntries(Object.entries(cpuUsed(cpuBefore, cpuSnapshot(pids))).map(([name, ms]) => [name, ms / 1000]));
  sample();
  const rssGrowth: Record<string, number> = {};
  for (const name of Object.keys(pids)) rssGrowth[name] = (peak[name] ?? NaN) - (rssBefore[name] ?? NaN);
  return { transfer: { mbPerSec: bytes / 1e6 / seconds, seconds, rssGrowth, rssBefore, cpuSeconds }, answer };
}

/** The signed download URL of file `id` under `base` (docs/interface.md#files: HMAC-SHA256 of `{id}:{expires}:{inline}` with DMS_URL_SECRET). */
export function signedDownloadUrl(base: string, secret: string, id: number): string {
  const expires = Math.floor(Date.now() / 1000) + 3600;
  const token = createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${id}:${expires}:false`).digest('base64url');
  return `${base}/api/dms-file/download/${id}?${new URLSearchParams({ token, expires: String(expires), inline: 'false' })}`;
}

/**
 * GET of a signed download, hashed as it arrives: the bytes received and their SHA-256. The load
 * generator shares the cores with what it measures, so it reads the socket itself into one
 * reusable 1 MiB buffer (node:http's client would allocate two buffers per 64 KiB read, and the
 * GCs they cause), with the gateway's strict response-head reader; the body is framed by its
 * Content-Length and a short one fails the run.
 */
export async function downloadFile(url: string, headers: Record<string, string> = {}): Promise<{ bytes: number; sha256: string }> {
  const target = new URL(url);
  const shown = `GET ${url.replace(/token=[^&]*/, 'token=…')}`;
  const reader = new ResponseHeadReader();
  const hash = createHash('sha256');
  let status = 0;
  let remaining = -1;
  let bytes = 0;
  let errorBody = '';
  const readInto = Buffer.allocUnsafeSlow(MIB);
  return new Promise((resolve, reject) => {
    const socket = connect({
      host: target.hostname,
      port: Number(target.port),
      onread: {
        buffer: readInto,
        callback: (length) => {
          let body = readInto.subarray(0, length);
          if (remaining < 0) {
            const read = reader.push(body);
            if (!read) return true;
            status = read.head.status;
            const contentLength = read.head.headers.find(([name]) => name === 'content-length')?.[1];
            if (contentLength === undefined) throw new BenchError(`${shown}: no Content-Length`);
            remaining = Number(contentLength);
            body = body.subarray(read.bodyStart);
          }
          if (status === 200) hash.update(body);
          else errorBody += body.toString('utf8');
          bytes += body.length;
          remaining -= body.length;
          if (remaining <= 0) {
            socket.destroy();
            if (status !== 200) reject(new BenchError(`${shown}: HTTP ${status}: ${errorBody.slice(0, 500)}`));
            else resolve({ bytes, sha256: hash.digest('hex') });
          }
          return true;
        },
      },
    });
    socket.once('error', reject);
    socket.once('end', () => reject(new BenchError(`${shown}: the connection ended after ${bytes} bytes of the body`)));
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nConnection: close\r\n${Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('')}\r\n`,
    );
  });
}
