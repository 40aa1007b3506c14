import type { Server } from '@grpc/grpc-js';
import type { Config } from '@platform/libs/config/config.ts';
import { crudHandlers, resourceRuntime } from '@platform/libs/crud/handlers.ts';
import { implement, type Runtime } from '@platform/libs/grpc/server.ts';
import { AuthServiceService } from '@platform/libs/gen/platform/core/v1/auth.ts';
import { authHandlers } from './auth/auth.service.ts';
import { schemas } from './db.ts';
import { account } from './resources/account/account.resource.ts';
import { userInfo } from './resources/user-info/user-info.resource.ts';
import { userInfoHooks } from './resources/user-info/user-info.operations.ts';
import { userProcess } from './resources/user-process/user-process.resource.ts';
import { userProcessHooks } from './resources/user-process/user-process.operations.ts';

/** Registers the core service's gRPC implementations. */
export function register(server: Server, runtime: Runtime, config: Config): void {
  server.addService(AuthServiceService, implement(runtime, authHandlers(config, runtime.tokens)));
  server.addService(account.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, account))));
  server.addService(userInfo.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, userInfo, userInfoHooks(config.bcryptRounds)))));
  server.addService(userProcess.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, userProcess, userProcessHooks))));
}
