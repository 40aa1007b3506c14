/**
 * What the webhook scenarios share: a loopback receiver that answers 200 and notes when each event
 * first arrived, the subscription made and removed through the API, and the branch create they
 * write with (docs/interface.md, webhook-subscription).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { expectStatus, http, type BenchPlatform } from './platform.ts';
import { ID_TAG, type Target } from './measure.ts';
import { BenchError, onCleanup } from './scenario.ts';
import { benchPartner } from './partner.ts';

/** One event as it first reached the receiver. */
export interface Arrival {
  /** Wall-clock ms (performance.timeOrigin + performance.now()) when its body had arrived. */
  at: number;
  /** The body's `timestamp`, the event's occurredAt, in ms since the epoch. */
  occurredAt: number;
  type: string;
  /** The body's `data.key`, the record's key as text. */
  key: string;
}

export interface Receiver {
  /** `http://127.0.0.1:<port>/hook`. */
  url: string;
  /** First arrival per `<type> <key>` (a redelivery of the same webhook-id is counted once). */
  arrivals: Map<string, Arrival>;
  /** Deliveries received in all, redeliveries included. */
  received(): number;
  /** ms since the last delivery arrived (Infinity: none yet). */
  idleMs(): number;
  /** Forgets what arrived. */
  reset(): void;
}

/** A node:http receiver on loopback answering 200 to every POST; closing it is registered as a cleanup. */
export async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, Arrival>();
  let received = 0;
  let last = -Infinity;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const at = performance.timeOrigin + performance.now();
      res.writeHead(200).end();
      received++;
      last = performance.now();
      try {
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type?: string; timestamp?: string; data?: { key?: string } };
        const name = `${body.type} ${body.data?.key}`;
        if (!arrivals.has(name)) arrivals.set(name, { at, occurredAt: Date.parse(body.timestamp ?? ''), type: String(body.type), key: String(body.data?.key) });
      } catch {
        // not JSON: counted as received, matched to no write
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  server.unref();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals,
    received: () => received,
    idleMs: () => performance.now() - last,
    reset: () => {
      arrivals.clear();
      received = 0;
    },
  };
}

const SUBSCRIPTIONS = '/api/webhook-subscription';

/** The platform answered 404 on webhook-subscription: it has no webhooks to measure. */
export class WebhooksMissing extends BenchError {
  override name = 'WebhooksMissing';
}

/**
 * Subscribes `url` to `eventTypes` in tenant `crProcessId`; its id. A platform without webhook
 * subscriptions (404) throws WebhooksMissing, saying so.
 */
export async function subscribe(platform: BenchPlatform, token: string, crProcessId: number, url: string, eventTypes: string[]): Promise<number> {
  const answer = await http('POST', `${platform.url}${SUBSCRIPTIONS}`, {
    headers: { authorization: `Bearer ${token}` },
    body: { crProcessId, url, eventTypes, description: 'bench receiver', status: true },
  });
  if (answer.status === 404) {
    throw new WebhooksMissing(
      `POST ${SUBSCRIPTIONS} answered 404: this build has no webhook subscriptions yet, so no delivery can be measured (${answer.text.slice(0, 200)})`,
    );
  }
  if (answer.status !== 200) throw new BenchError(`POST ${SUBSCRIPTIONS}: HTTP ${answer.status} (expected 200): ${answer.text.slice(0, 500)}`);
  const id = (answer.json as { id?: unknown } | undefined)?.id;
  if (typeof id !== 'number') throw new BenchError(`POST ${SUBSCRIPTIONS} answered no id: ${answer.text.slice(0, 300)}`);
  return id;
}

/** Deletes subscription `id`. */
export async function unsubscribe(platform: BenchPlatform, token: string, id: number): Promise<void> {
  await expectStatus(
    `DELETE ${SUBSCRIPTIONS}/${id}`,
    http('DELETE', `${platform.url}${SUBSCRIPTIONS}/${id}`, { headers: { authorization: `Bearer ${token}` } }),
    204,
  );
}

/** Waits until nothing has arrived at `receiver` for `quietMs` (at most `timeoutMs`): a run's deliveries still under way are not counted to the next run. */
export async function untilDelivered(receiver: Receiver, quietMs = 1_000, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (receiver.idleMs() < quietMs) {
    if (Date.now() > deadline) throw new BenchError(`deliveries still arriving ${timeoutMs / 1000} s after the run`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The tenant the branch creates write in. */
export const BRANCH_TENANT = 1;

/**
 * `POST /api/branch` of a new branch of one new partner in BRANCH_TENANT, every request a branch
 * code of its own (`[<id>]`, replaced per request by measure and openLoop).
 */
export async function branchCreate(platform: BenchPlatform, token: string): Promise<Target> {
  const auth = { authorization: `Bearer ${token}` };
  const suffix = randomBytes(4).toString('hex').toUpperCase();
  const partnerId = await benchPartner(platform, token, BRANCH_TENANT);
  const target: Target = {
    url: `${platform.url}/api/branch`,
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      crProcessId: BRANCH_TENANT,
      businessPartnerId: partnerId,
      branchName: 'Bench branch',
      branchCode: `B-${ID_TAG}`,
      address: 'Büyükdere Cad. No:1, 34394 Şişli, İstanbul',
      phone: '+90 212 555 0101',
      email: 'bench@example.com',
    }),
  };
  // one create first: a body the service refuses fails here, with its answer, not mid-run
  await expectStatus('POST /api/branch', http('POST', target.url, { headers: auth, body: JSON.parse((target.body ?? '').replace(ID_TAG, suffix)) }));
  return target;
}
