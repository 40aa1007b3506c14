/**
 * startPlatform on free ports (scripts/lib/free-ports.ts): a port is picked before its service binds
 * it, and another process may take it in between. The start then picks again, a bounded number of
 * times. Stand-ins take the services' places; the one for dms-svc binds its gRPC port as dms-svc does.
 */
import { createServer, type Server } from 'node:net';
import test from 'ava';
import { PlatformStartError } from '../scripts/lib/platform-start-error.ts';
import { startPlatform } from '../scripts/lib/processes.ts';
import { freePort } from '../scripts/lib/os-probes.ts';
import { platform } from './helpers/platform.ts';
import { BINDING_STUB, READY_STUB } from './helpers/stand-in.ts';
import { suiteLog } from './helpers/suite-log.ts';

const entries = { 'core-svc': READY_STUB, 'bpm-svc': READY_STUB, 'dms-svc': BINDING_STUB, gateway: READY_STUB };
/** The ports startPlatform picks, in its order: gateway, core, bpm, dms gRPC, dms HTTP. */
const PORT_VARS = ['GATEWAY_PORT', 'CORE_GRPC_ADDR', 'BPM_GRPC_ADDR', 'DMS_GRPC_ADDR', 'DMS_HTTP_ADDR'];
const DMS_GRPC_PICK = 3;

/** The suite's env without its addresses (so that they are picked), the stub told which to bind. */
function stubEnv(extra: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...platform.env, STUB_BIND_VAR: 'DMS_GRPC_ADDR', ...extra };
  for (const name of PORT_VARS) if (!(name in extra)) delete env[name];
  return env;
}

async function takenPort(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

test('a port taken between its pick and its bind is picked again, and the platform starts', async (t) => {
  const taken = await takenPort();
  const picks: number[] = [];
  // dms-svc's gRPC port of the first attempt is one another process holds
  const pickPort = async () => {
    const port = picks.length === DMS_GRPC_PICK ? taken.port : await freePort();
    picks.push(port);
    return port;
  };
  try {
    const started = await startPlatform({ env: stubEnv(), ports: 'free', pickPort, entries, log: suiteLog() });
    try {
      t.is(picks.length, 2 * PORT_VARS.length, 'a second attempt picked every port anew');
      t.is(started.addresses['dms-svc'], `127.0.0.1:${picks[PORT_VARS.length + DMS_GRPC_PICK]}`);
      t.not(started.addresses['dms-svc'], `127.0.0.1:${taken.port}`);
    } finally {
      await started.stop();
    }
  } finally {
    taken.server.close();
  }
});

test('a port that stays taken fails the start after three attempts, with the service output', async (t) => {
  const taken = await takenPort();
  let picks = 0;
  const pickPort = () => {
    picks++;
    return freePort();
  };
  try {
    const error = await t.throwsAsync(
      startPlatform({ env: stubEnv({ DMS_GRPC_ADDR: `127.0.0.1:${taken.port}` }), ports: 'free', pickPort, entries, log: suiteLog() }),
      { instanceOf: PlatformStartError },
    );
    t.is(error?.service, 'dms-svc');
    t.true(error?.output.some((line) => line.includes('EADDRINUSE')));
    t.is(picks, 3 * (PORT_VARS.length - 1), 'three attempts, each picking the ports not given');
  } finally {
    taken.server.close();
  }
});
