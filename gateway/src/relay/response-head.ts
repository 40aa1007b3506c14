/** The status and headers of an HTTP/1.1 response. */
export interface ResponseHead {
  status: number;
  /** Header fields in the order received, names lower-cased. */
  headers: [name: string, value: string][];
}

/** Longest head accepted: dms-svc's heads are a few hundred bytes. */
const MAX_HEAD_BYTES = 16 * 1024;
const END_OF_HEAD = Buffer.from('\r\n\r\n');
const STATUS_LINE = /^HTTP\/1\.1 ([1-5]\d\d)(?: [\t -~]*)?$/;
/** RFC 9110 §5.1 token, then the value without surrounding whitespace; no obsolete line folding. */
const FIELD_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[\t ]*([\t\x20-\x7e\x80-\xff]*?)[\t ]*$/;

/** An upstream answer the relay cannot hand on: the gateway answers 503 SVC-SYS-5002 instead. */
export class BadUpstreamResponse extends Error {}

/**
 * Reads a response head (RFC 9112 §2-5) from the first bytes of a connection, strictly: one peer
 * (dms-svc's node:http server) writes it, so anything unusual is refused rather than guessed at.
 * `push` takes each chunk as read, copying only what it must keep (the chunk's buffer is reused),
 * and once the blank line has arrived returns the head and where in that chunk the body begins.
 */
export class ResponseHeadReader {
  #kept = Buffer.alloc(0);

  push(chunk: Buffer): { head: ResponseHead; bodyStart: number } | undefined {
    const seen = this.#kept.length;
    const bytes = seen === 0 ? chunk : Buffer.concat([this.#kept, chunk]);
    const end = bytes.indexOf(END_OF_HEAD);
    if (end < 0) {
      if (bytes.length > MAX_HEAD_BYTES) throw new BadUpstreamResponse('response head too long');
      this.#kept = Buffer.from(bytes);
      return undefined;
    }
    if (end > MAX_HEAD_BYTES) throw new BadUpstreamResponse('response head too long');
    this.#kept = Buffer.alloc(0);
    return { head: parseHead(bytes.subarray(0, end).toString('latin1')), bodyStart: end + END_OF_HEAD.length - seen };
  }
}

function parseHead(text: string): ResponseHead {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const status = STATUS_LINE.exec(statusLine);
  if (!status) throw new BadUpstreamResponse(`bad status line ${JSON.stringify(statusLine.slice(0, 100))}`);
  const headers: [string, string][] = [];
  for (const line of lines) {
    const field = FIELD_LINE.exec(line);
    if (!field) throw new BadUpstreamResponse(`bad header line ${JSON.stringify(line.slice(0, 100))}`);
    headers.push([(field[1] ?? '').toLowerCase(), field[2] ?? '']);
  }
  return { status: Number(status[1]), headers };
}
