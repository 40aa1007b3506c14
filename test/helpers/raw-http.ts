/**
 * HTTP as it leaves the client, byte for byte. fetch normalises what a hostile client would not:
 * it trims header values, resolves `%2e%2e` path segments and refuses some header bytes. These two
 * send the path, the headers (as latin1 bytes, like any HTTP/1.1 client) and the body as given.
 */
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { platform, type ApiResponse } from './platform.ts';

export interface RawOptions {
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  token?: string;
  apiKey?: boolean;
  baseUrl?: string;
}

/** A few kept-alive connections, so that thousands of requests do not each open one. */
const agent = new Agent({ keepAlive: true, maxSockets: 16 });

/**
 * One request through node:http: `path` goes out exactly as written (`/api/account/%FF` stays so),
 * header values as latin1 bytes. The body is parsed as JSON when the response says it is JSON.
 *
 * @example
 * const res = await rawRequest('GET', '/api/branch/%FF', { token });
 */
export function rawRequest(method: string, path: string, options: RawOptions = {}): Promise<ApiResponse> {
  const url = new URL(options.baseUrl ?? platform.url);
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey) headers['x-api-key'] = platform.apiKey;
  const body = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body;
  if (body !== undefined) {
    headers['content-length'] = String(body.byteLength);
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value]) responseHeaders.append(name, item);
        }
        const json = res.headers['content-type']?.includes('application/json') ?? false;
        resolve({ status: res.statusCode ?? 0, headers: responseHeaders, body: json && text !== '' ? JSON.parse(text) : text, text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface RawExchange {
  status: number;
  /** The response head as received (status line and header lines). */
  head: string;
  text: string;
  body: any;
}

/**
 * Writes `bytes` to a new TCP connection to the gateway and reads the answer until the server
 * closes the connection: for requests that an HTTP client library would refuse to send at all.
 */
export function rawExchange(bytes: string | Uint8Array, baseUrl = platform.url): Promise<RawExchange> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(url.port), url.hostname, () => socket.write(bytes));
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // the server may reset a connection whose request it did not read to the end: keep what came
    socket.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' ? undefined : reject(error)));
    socket.on('close', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const split = raw.indexOf('\r\n\r\n');
      const head = split < 0 ? raw : raw.slice(0, split);
      const text = split < 0 ? '' : raw.slice(split + 4);
      let body: unknown = text;
      if (/^content-type:\s*application\/json/im.test(head)) {
        try {
          body = JSON.parse(text);
        } catch {
          // left as text: the assertion on it says what came
        }
      }
      resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(head)?.[1] ?? 0), head, text, body });
    });
  });
}
