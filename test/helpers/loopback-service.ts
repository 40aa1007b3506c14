/**
 * A Service on loopback, as Kubernetes puts one address in front of a Deployment's replicas
 * (deploy/README.md: `core-svc:50051`, `dms-svc`): a TCP port on 127.0.0.1 that hands each
 * connection it accepts to one of the replicas, in turn (round robin), passing over a replica that
 * refuses it (one killed and not yet back), and closes the client's side when the replica's side
 * closes. A replica SIGKILLed drops its connections; their clients (the gateway's gRPC channels, its
 * file relay) connect again and land on a replica that is up. The replicas of the cluster test listen
 * on the Service's port at loopback addresses of their own (INTERNAL_LISTEN_HOST 127.0.0.2, 127.0.0.3).
 */
import { connect, createServer, type Socket } from 'node:net';

export interface LoopbackService {
  /** `127.0.0.1:<port>`: what the clients dial (CORE_GRPC_ADDR, DMS_HTTP_ADDR, …). */
  address: string;
  /** The connections open now to the replica at `backend` (`host:port`, one of those given). */
  openTo(backend: string): number;
  /** Every connection handed to the replica at `backend` so far. */
  handedTo(backend: string): number;
  /** Stops accepting and closes every connection. */
  close(): Promise<void>;
}

function hostAndPort(address: string): { host: string; port: number } {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
}

/**
 * Listens on 127.0.0.1:`port` and forwards each connection to one of `backends` (`host:port`).
 *
 * @example
 * const core = await startLoopbackService(port, [`127.0.0.2:${port}`, `127.0.0.3:${port}`]);
 * // CORE_GRPC_ADDR = core.address
 */
export async function startLoopbackService(port: number, backends: readonly string[]): Promise<LoopbackService> {
  const open = new Map(backends.map((backend) => [backend, new Set<Socket>()]));
  const handed = new Map(backends.map((backend) => [backend, 0]));
  const clients = new Set<Socket>();
  let next = 0;

  const forward = (client: Socket, tried: number): void => {
    if (client.destroyed) return;
    // no replica takes it: the client sees its connection closed, as with no ready endpoint
    if (tried >= backends.length) return void client.destroy();
    const backend = backends[next++ % backends.length]!;
    const upstream = connect(hostAndPort(backend));
    const refused = (): void => {
      upstream.destroy();
      forward(client, tried + 1);
    };
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.removeListener('error', refused);
      upstream.on('error', () => undefined);
      open.get(backend)!.add(upstream);
      handed.set(backend, handed.get(backend)! + 1);
      upstream.once('close', () => {
        open.get(backend)!.delete(upstream);
        client.destroy();
      });
      client.once('close', () => upstream.destroy());
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    clients.add(client);
    client.on('error', () => undefined);
    client.once('close', () => clients.delete(client));
    forward(client, 0);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  return {
    address: `127.0.0.1:${port}`,
    openTo: (backend) => open.get(backend)?.size ?? 0,
    handedTo: (backend) => handed.get(backend) ?? 0,
    close: async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of clients) client.destroy();
      for (const sockets of open.values()) for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}
