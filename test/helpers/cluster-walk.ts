/**
 * What test/cluster.test.ts's walk records of its requests and of the records they wrote, and how
 * it judges an answer: the walk's own vocabulary, apart from the walk.
 */
import { createHash } from 'node:crypto';

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** One request and what came of it: its status (0 when no answer came) and body. */
export interface Outcome {
  gateway: number;
  step: string;
  at: number;
  ms: number;
  status: number;
  bytes: Buffer;
  headers: Headers;
  error?: string;
}

export interface PartnerTrack {
  id: number;
  /** The name and version its last acknowledged write left it with. */
  name: string;
  version: number;
  /** A write of it whose answer was not 2xx: the name it would have set, or 'delete'. */
  unsure?: string;
  /** The acknowledged writes: its event's type and the version the history gives it. */
  writes: { type: string; version: number }[];
  deleted: boolean;
}

export interface FileTrack {
  fileId: number;
  size: number;
  sha: string;
  storedFileName: string;
  /** Its share link's public path, once acknowledged. */
  link?: string;
}

export interface ImportTrack {
  runId: number;
  /** The prefix of its partners' codes: `<prefix>-<row>`. */
  prefix: string;
}

/** Whether `bytes` is the error body of decisions §6 for a 5xx: `{status: "ERROR", error_code, message, refId}`. */
export function isErrorBody(bytes: Buffer): boolean {
  try {
    const body = JSON.parse(bytes.toString('utf8'));
    return body.status === 'ERROR' && /^SVC-SYS-\d{4}$/.test(body.error_code) && /\S/.test(String(body.message)) && typeof body.refId === 'string';
  } catch {
    return false;
  }
}

/** The port of a `host:port` address. */
export function portOf(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}
