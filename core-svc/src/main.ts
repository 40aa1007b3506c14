// First: sizes libuv's thread pool (bcrypt runs there) before anything can start it.
import '@platform/service-kit/runtime/thread-pool.ts';
import { main } from '@platform/service-kit/grpc/service-main.ts';
import { GATEWAY_CALLS } from '@platform/contracts/core/gateway-calls.ts';
import { loadCoreConfig } from './config.ts';
import { bootstrap } from './bootstrap.ts';
import { databaseExceptionRecorder } from './logs/exception-log.service.ts';
import { entities, migrationsDir } from './db.ts';
import { register } from './server.ts';
import { startWebhookDispatcher } from './webhooks/dispatcher.ts';

main(
  async () => ({
    name: 'core',
    loadConfig: loadCoreConfig,
    entities,
    migrationsDir,
    register,
    // the gateway calls core-svc as itself for these alone (docs/adr/0139-the-gateway-s-own-credentials.md)
    gatewayCalls: GATEWAY_CALLS,
    afterMigrate: bootstrap,
    exceptionRecorder: databaseExceptionRecorder,
    // the webhook dispatcher runs beside the gRPC server and stops with it
    serve: async (runtime, config) => startWebhookDispatcher(runtime.orm, config.webhooks, runtime.log, runtime.metrics),
  }),
  'core-svc',
);
