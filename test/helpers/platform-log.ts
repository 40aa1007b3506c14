import { readFile } from 'node:fs/promises';
import { platform } from './platform.ts';

/** One JSON line of the platform's log and the process that wrote it. */
export interface LogLine {
  /** `gateway`, `core-svc`, `bpm-svc` or `dms-svc`. */
  source: string;
  entry: Record<string, unknown>;
}

/** The JSON lines of the suite's log whose text holds `text` (e.g. a request id). */
export async function logLinesWith(text: string): Promise<LogLine[]> {
  const log = await readFile(platform.logFile, 'utf8');
  const lines: LogLine[] = [];
  for (const line of log.split('\n')) {
    if (!line.includes(text)) continue;
    const match = /^\[([\w-]+)\]\s+(\{.*\})$/.exec(line);
    if (!match) continue;
    try {
      lines.push({ source: match[1] ?? '', entry: JSON.parse(match[2] ?? '') as Record<string, unknown> });
    } catch {
      // a line cut short while being written
    }
  }
  return lines;
}

/**
 * The gateway's own time on each request (`durationMs` of its access line), by request id, read in
 * one pass over the log; a request without an access line yet is missing from the map.
 */
export async function gatewayDurations(requestIds: Iterable<string>): Promise<Map<string, number>> {
  const wanted = new Set(requestIds);
  const durations = new Map<string, number>();
  for (const line of (await readFile(platform.logFile, 'utf8')).split('\n')) {
    if (!line.startsWith('[gateway]') || !line.includes('"request completed"')) continue;
    const id = /"requestId":"([^"]+)"/.exec(line)?.[1];
    if (!id || !wanted.has(id)) continue;
    try {
      durations.set(id, Number((JSON.parse(line.slice(line.indexOf('{'))) as { durationMs: number }).durationMs));
    } catch {
      // a line cut short while being written
    }
  }
  return durations;
}

/**
 * The log lines holding `text` that `matches` picks, once there is one: a line reaches the file a
 * moment after the response it is about (the access line is written once the response has
 * finished, and the launcher appends what the processes print). After `timeoutMs`, undefined.
 *
 * @example
 * const access = await logLine(requestId, (line) => line.source === 'gateway' && line.entry.msg === 'request completed');
 */
export async function logLine(text: string, matches: (line: LogLine) => boolean, timeoutMs = 5_000): Promise<LogLine | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await logLinesWith(text)).find(matches);
    if (found || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
