/**
 * gateway/src/http/json-answer.ts: the CRUD routes answer with `sendJson` instead of express's
 * `res.json`, to skip its two readings of the content type. Nothing on the wire may change: the same
 * app serves one value both ways, and the raw bytes of each answer (status line, every header in
 * order, body) must be equal but for the Date header, for GET, HEAD, a request express finds fresh
 * (If-None-Match: *, a 304), a large body of multi-byte characters, and a response that already has a type.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import express from 'express';
import { sendJson } from '../gateway/src/http/json-answer.ts';

const record = { id: 9007199254740991, version: 0, status: true, createdAt: '2026-11-27T04:30:00.123Z', branchName: 'Şube "bir" \\ ü', email: null };
const values: Record<string, unknown> = {
  record,
  large: { content: Array.from({ length: 40 }, () => ({ ...record, address: 'ığüşöç€'.repeat(30) })), page: 0 },
  list: [1, 'two', null],
  text: 'a string',
};

/** An app with the gateway's settings serving each value through res.json at /json/… and sendJson at /ours/…. */
function app(): express.Express {
  const served = express();
  served.disable('x-powered-by');
  served.set('case sensitive routing', true);
  served.set('etag', false);
  for (const [name, value] of Object.entries(values)) {
    served.get(`/json/${name}`, (_req, res) => void res.json(value));
    served.get(`/ours/${name}`, (_req, res) => sendJson(res, value));
  }
  served.get('/json/typed', (_req, res) => void res.type('application/problem+json').json(record));
  served.get('/ours/typed', (_req, res) => {
    res.type('application/problem+json');
    sendJson(res, record);
  });
  return served;
}

/** The raw answer to one request on its own connection, its Date header blanked. */
function exchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () =>
      resolve(
        Buffer.concat(chunks)
          .toString('latin1')
          .replace(/\r\nDate: [^\r]*/, '\r\nDate: -'),
      ),
    );
  });
}

test('sendJson answers byte for byte as res.json', async (t) => {
  const server = app().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const requests = (path: string) => [
      `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `HEAD ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
      `GET ${path} HTTP/1.1\r\nHost: x\r\nIf-None-Match: *\r\nConnection: close\r\n\r\n`,
    ];
    let compared = 0;
    for (const name of [...Object.keys(values), 'typed']) {
      const [theirs, ours] = [requests(`/json/${name}`), requests(`/ours/${name}`)];
      for (let i = 0; i < theirs.length; i++) {
        const expected = await exchange(port, theirs[i]!);
        t.regex(expected, /^HTTP\/1\.1 (200|304) /);
        t.is(await exchange(port, ours[i]!), expected, `${name}: ${theirs[i]!.split('\r\n')[0]}`);
        compared++;
      }
    }
    t.is(compared, 15);
    t.regex(await exchange(port, requests('/ours/large')[0]!), /\r\nContent-Type: application\/json; charset=utf-8\r\nContent-Length: \d{5}\r\n/);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
