import { PlatformStartError } from './platform-start-error.ts';

type Env = Record<string, string | undefined>;

/**
 * Fills in GATEWAY_PORT, CORE_GRPC_ADDR, BPM_GRPC_ADDR, DMS_GRPC_ADDR and DMS_HTTP_ADDR where `env`
 * lacks them: `'default'` (8080 and 127.0.0.1:50051-50054) or `'free'` (ports `pickPort` hands
 * out). With `'free'`, the services' metrics ports missing from `env` are 0: each service takes any
 * free port and reports it, so a second service started with the same env never collides.
 */
export async function fillPorts(env: Env, ports: 'default' | 'free', pickPort: () => Promise<number>): Promise<void> {
  const pick = async (fallback: number): Promise<number> => (ports === 'free' ? pickPort() : fallback);
  if (!env.GATEWAY_PORT) env.GATEWAY_PORT = String(await pick(8080));
  const grpc = [
    ['CORE_GRPC_ADDR', 50051],
    ['BPM_GRPC_ADDR', 50052],
    ['DMS_GRPC_ADDR', 50053],
    // dms-svc's HTTP port for file bytes, proxied to by the gateway
    ['DMS_HTTP_ADDR', 50054],
  ] as const;
  for (const [name, fallback] of grpc) {
    if (!env[name]) env[name] = `127.0.0.1:${await pick(fallback)}`;
  }
  if (ports === 'free') for (const name of ['CORE_METRICS_PORT', 'BPM_METRICS_PORT', 'DMS_METRICS_PORT']) env[name] ||= '0';
}

/**
 * Runs `start`, and again (up to three times in all) while it fails because a child found a port
 * taken. For starts that pick ports themselves, inside `start`, so that each attempt picks anew: a
 * free port is picked before its service binds it, and meanwhile another process (any outgoing
 * connection's ephemeral port comes from the same range) may take it.
 *
 * @example
 * const own = await retryingTakenPorts(async () =>
 *   startPlatform({ env: { ...env, CORE_GRPC_ADDR: `localhost:${await freePort()}` }, ports: 'free' }));
 */
export async function retryingTakenPorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= FREE_PORT_ATTEMPTS || !portWasTaken(error)) throw error;
    }
  }
}

/** Starts on free ports tried before a port taken between its pick and its bind fails the start. */
const FREE_PORT_ATTEMPTS = 3;

/** A child that exited before the platform was ready because its address was in use. */
function portWasTaken(error: unknown): boolean {
  return error instanceof PlatformStartError && error.output.some((line) => line.includes('EADDRINUSE'));
}
