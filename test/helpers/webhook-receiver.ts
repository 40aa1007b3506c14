/**
 * A webhook endpoint on loopback for the tests: records every POST it gets (headers, body, whether
 * the Standard Webhooks signature verifies with the secret it is given) and answers per `answer`.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  json: any;
  /** Webhook.verify of the standardwebhooks package passed with the secret set at the time. */
  verified: boolean;
  at: number;
  path: string;
}

export interface Receiver {
  url: string;
  received: Received[];
  /** The secret signatures are checked with (the subscription's, once created). */
  secret: string | undefined;
  /** How to answer a request; default 200. Answer nothing (keep `res` open) to hold it. */
  answer: (req: IncomingMessage, res: ServerResponse, received: Received) => void;
  /** Waits until `predicate` holds over what was received, or fails after `timeoutMs`. */
  until(predicate: (received: Received[]) => boolean, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const open = new Set<ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    secret: undefined,
    answer: (_req, res) => res.end('ok'),
    async until(predicate, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(receiver.received)) {
        if (Date.now() > deadline) throw new Error(`receiver: condition not met in ${timeoutMs} ms (${receiver.received.length} received)`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(req.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(req.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(req.headers['webhook-signature'] ?? ''),
      };
      let verified = false;
      try {
        if (receiver.secret) {
          new Webhook(receiver.secret).verify(body, headers);
          verified = true;
        }
      } catch {
        verified = false;
      }
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const received: Received = {
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        json,
        verified,
        at: Date.now(),
        path: req.url ?? '',
      };
      receiver.received.push(received);
      open.add(res);
      res.on('close', () => open.delete(res));
      receiver.answer(req, res, received);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
