/**
 * The global search when a service does not answer (docs/adr/0116-global-search-fans-out.md): the
 * others' hits within the time budget, the answer marked partial and naming the kinds left out,
 * never a 500; 503 SVC-SYS-5002 only when no service answered. A gateway of its own, started
 * against the suite's services with dms-svc's address replaced by one that is unreachable or
 * that accepts connections and never speaks (a service hung).
 */
import { createServer, type Server, type Socket } from 'node:net';
import test from 'ava';
import { startPlatform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { assertErrorBody } from './helpers/error-body.ts';
import { createAccount, createPartner, unique, userWithRoles } from './helpers/factories.ts';
import { api, platform } from './helpers/platform.ts';
import { READY_STUB } from './helpers/stand-in.ts';
import { suiteLog } from './helpers/suite-log.ts';

/** A TCP server that takes every connection and says nothing: a gRPC call to it waits for its deadline. */
async function silentServer(): Promise<{ address: string; close: () => void }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    address: `127.0.0.1:${port}`,
    close: () => {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

/** A gateway of its own against the suite's core and bpm, with `overrides` of its environment. */
async function gatewayWith(overrides: Record<string, string>) {
  return startPlatform({
    env: { ...platform.env, GATEWAY_PORT: '0', ...overrides },
    entries: { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': READY_STUB },
    log: suiteLog(),
  });
}

test('a hung dms-svc leaves files out of a partial answer within the budget, the partners found', async (t) => {
  const account = await createAccount();
  const word = unique('Hang');
  const partner = await createPartner(account.crProcessId, { partnerName: `${word} partner` });
  const user = await userWithRoles(account, ['business-partner:read', 'dms-file:read']);
  const hung = await silentServer();
  // the calls' own deadline far above the search's budget: an answer in time is the budget's doing
  const gateway = await gatewayWith({ DMS_GRPC_ADDR: hung.address, GRPC_DEADLINE_MS: '20000' });
  try {
    const started = performance.now();
    const res = await api('GET', `/api/search?q=${word}`, { token: user.token, baseUrl: gateway.url });
    const ms = performance.now() - started;
    t.is(res.status, 200, res.text);
    t.true(res.body.partial);
    t.deepEqual(res.body.unanswered, ['dms-file']);
    t.deepEqual(
      res.body.groups.map((group: { entity: string }) => group.entity),
      ['business-partner'],
    );
    t.deepEqual(
      res.body.groups[0].hits.map((hit: { id: number }) => hit.id),
      [partner.id],
    );
    t.true(ms < 5000, `answered in ${Math.round(ms)} ms, within the 1.5 s budget and not the 20 s deadline`);
  } finally {
    await gateway.stop();
    hung.close();
  }
});

test('with every searching service unreachable the search is 503 SVC-SYS-5002; with one, partial', async (t) => {
  const account = await createAccount();
  const user = await userWithRoles(account, ['business-partner:read', 'dms-file:read']);
  const [deadBpm, deadDms] = [await freePort(), await freePort()];
  const none = await gatewayWith({ BPM_GRPC_ADDR: `127.0.0.1:${deadBpm}`, DMS_GRPC_ADDR: `127.0.0.1:${deadDms}` });
  try {
    assertErrorBody(t, await api('GET', '/api/search?q=abc', { token: user.token, baseUrl: none.url }), 503, 'SVC-SYS-5002');
  } finally {
    await none.stop();
  }
  const one = await gatewayWith({ DMS_GRPC_ADDR: `127.0.0.1:${deadDms}` });
  try {
    const res = await api('GET', '/api/search?q=abc', { token: user.token, baseUrl: one.url });
    t.is(res.status, 200, res.text);
    t.true(res.body.partial);
    t.deepEqual(res.body.unanswered, ['dms-file']);
  } finally {
    await one.stop();
  }
});
