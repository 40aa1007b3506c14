import { mkdirSync } from 'node:fs';
import { GatewayCallKey } from '@platform/kit/auth/gateway-call-key.ts';
import { loadGatewayConfig } from './config.ts';
import { localAddress } from '@platform/kit/config/listen-host.ts';
import { DRAIN_BOUND_MS, drainHttpServer } from '@platform/kit/runtime/drain.ts';
import { keepWritesPrivate } from '@platform/kit/runtime/private-files.ts';
import { Shutdown } from '@platform/kit/runtime/stop-signals.ts';
import { reportEventLoopDelay } from '@platform/kit/log/event-loop.ts';
import { createLogger } from '@platform/kit/log/logger.ts';
import { flushTracing } from '@platform/kit/telemetry/trace-bridge.ts';
import { channelCredentials } from '@platform/kit/grpc/credentials.ts';
import { coreExceptionRecorder } from '@platform/kit/grpc/exception-log.ts';
import { createApp } from './app.ts';
import { SessionCheck } from './auth/session-check.ts';
import { SessionsSeen } from './auth/sessions-seen.ts';
import { Backends } from './backends.ts';
import { GatewayMetrics } from './metrics/gateway.metrics.ts';
import { answerClientErrors } from './http/client-errors.ts';
import { boundBodyReceipt } from './http/receipt-deadline.ts';

function start(): void {
  // before anything is written: DATA_DIR and what goes in it are the owner's alone (0700 / 0600)
  keepWritesPrivate();
  const config = loadGatewayConfig();
  mkdirSync(config.dataDir, { recursive: true });
  const log = createLogger('gateway', config.logLevel);
  reportEventLoopDelay('gateway');
  const metrics = new GatewayMetrics();
  const backends = new Backends(config, metrics.grpcClient);
  // the gateway's own credential to core-svc; it holds no signing key (docs/adr/0138-an-edge-without-the-signing-secret.md)
  const gatewayKey = new GatewayCallKey(config.gatewayCallKey);
  const sessions = new SessionCheck(backends, gatewayKey);
  const seen = new SessionsSeen(backends, gatewayKey, config.sessionSeenFlushMs, log);
  const exceptions = coreExceptionRecorder(config.grpc.core, channelCredentials(config.grpcTls), () => gatewayKey.credential, log);
  const { app, management } = createApp({ config, backends, gatewayKey, sessions, seen, recordFailure: exceptions.record, log, metrics });
  // Ready (to a launcher) once both ports listen, naming the management port as the metrics address:
  // MANAGEMENT_PORT=0 then takes any free port, and a port found taken fails the start, not later.
  let managementAddress: string | undefined;
  let publicAddress: string | undefined;
  const readyWhenListening = (): void => {
    if (publicAddress === undefined || (managementServer && managementAddress === undefined)) return;
    process.send?.({ type: 'ready', name: 'gateway', address: publicAddress, ...(managementAddress ? { metricsAddress: managementAddress } : {}) });
  };
  const managementServer =
    config.managementPort === undefined
      ? undefined
      : management.listen(config.managementPort, config.internalListenHost, () => {
          const address = managementServer?.address();
          const port = typeof address === 'object' && address ? address.port : (config.managementPort ?? 0);
          log.info({ host: config.internalListenHost, port }, 'management port listening');
          managementAddress = localAddress(config.internalListenHost, port);
          readyWhenListening();
        });
  const server = app.listen(config.gatewayPort, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.gatewayPort;
    log.info({ port }, 'listening');
    publicAddress = `http://127.0.0.1:${port}`;
    readyWhenListening();
  });
  answerClientErrors(server, log);
  if (managementServer) answerClientErrors(managementServer, log);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  // Node's requestTimeout bounds a whole request, server-wide, and would cut off a large upload over
  // a slow link however steadily it flows: bodies are timed per request instead (REQUEST_BODY_TIMEOUT_MS,
  // and UPLOAD_IDLE_TIMEOUT_MS of silence for the upload); the headers keep headersTimeout
  server.requestTimeout = 0;
  boundBodyReceipt(server, config.requestBodyTimeoutMs);

  new Shutdown(log).onSignals(
    async () => {
      managementServer?.close();
      managementServer?.closeAllConnections();
      const drained = await drainHttpServer(server);
      if (!drained) log.warn({ boundMs: DRAIN_BOUND_MS }, 'requests still in flight at the drain bound were cut');
      await seen.close();
      backends.close();
      exceptions.close();
      await flushTracing();
    },
    // the last resort, should closing the clients above hang
    { lastResortMs: DRAIN_BOUND_MS + 5_000 },
  );
}

try {
  start();
} catch (error) {
  createLogger('gateway', 'info').error({ err: error }, 'failed to start');
  process.exit(1);
}
