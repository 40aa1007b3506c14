import type { Server } from '@grpc/grpc-js';
import type { Config } from '@platform/libs/config/config.ts';
import { crudHandlers, type ResourceHooks, type ResourceRuntime } from '@platform/libs/crud/handlers.ts';
import type { Resource } from '@platform/libs/crud/resource.ts';
import { implement, type Runtime } from '@platform/libs/grpc/server.ts';
import { AuthServiceService } from '@platform/libs/gen/platform/core/v1/auth.ts';
import { authHandlers } from './auth/auth.service.ts';
import { schemas } from './db.ts';
import { account } from './resources/account/account.resource.ts';
import { userInfo } from './resources/user-info/user-info.resource.ts';
import { userInfoHooks } from './resources/user-info/user-info.operations.ts';
import { userProcess } from './resources/user-process/user-process.resource.ts';
import { userProcessHooks } from './resources/user-process/user-process.operations.ts';

function runtimeOf(resource: Resource, hooks?: ResourceHooks): ResourceRuntime {
  const entity = schemas.get(resource.path);
  if (!entity) throw new Error(`no entity for ${resource.path}`);
  return hooks ? { resource, entity, entities: schemas, hooks } : { resource, entity, entities: schemas };
}

/** Registers the core service's gRPC implementations. */
export function register(server: Server, runtime: Runtime, config: Config): void {
  server.addService(AuthServiceService, implement(runtime, authHandlers(config, runtime.tokens)));
  server.addService(account.grpc, implement(runtime, crudHandlers(runtimeOf(account))));
  server.addService(userInfo.grpc, implement(runtime, crudHandlers(runtimeOf(userInfo, userInfoHooks(config.bcryptRounds)))));
  server.addService(userProcess.grpc, implement(runtime, crudHandlers(runtimeOf(userProcess, userProcessHooks))));
}
