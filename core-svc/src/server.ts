import type { Server } from '@grpc/grpc-js';
import type { Config } from '@platform/libs/config/config.ts';
import { crudHandlers, resourceRuntime } from '@platform/libs/crud/handlers.ts';
import { implement, type Runtime } from '@platform/libs/grpc/server.ts';
import { AuthServiceService } from '@platform/libs/gen/platform/core/v1/auth.ts';
import { ExceptionLogServiceService } from '@platform/libs/gen/platform/core/v1/exception_log.ts';
import { SessionServiceService } from '@platform/libs/gen/platform/core/v1/session.ts';
import { authHandlers } from './auth/auth.service.ts';
import { exceptionLogHandlers } from './logs/exception-log.service.ts';
import { sessionHandlers } from './sessions/session.service.ts';
import { schemas } from './db.ts';
import { account } from './resources/account/account.resource.ts';
import { group } from './resources/group/group.resource.ts';
import { groupMember } from './resources/group-member/group-member.resource.ts';
import { groupMemberHooks } from './resources/group-member/group-member.operations.ts';
import { groupRole } from './resources/group-role/group-role.resource.ts';
import { roleType } from './resources/role-type/role-type.resource.ts';
import { userInfo } from './resources/user-info/user-info.resource.ts';
import { userInfoHooks } from './resources/user-info/user-info.operations.ts';
import { userProcess } from './resources/user-process/user-process.resource.ts';
import { userProcessHooks } from './resources/user-process/user-process.operations.ts';

/** Registers the core service's gRPC implementations. */
export function register(server: Server, runtime: Runtime, config: Config): void {
  server.addService(AuthServiceService, implement(runtime, authHandlers(config, runtime.tokens)));
  server.addService(SessionServiceService, implement(runtime, sessionHandlers(config)));
  server.addService(ExceptionLogServiceService, implement(runtime, exceptionLogHandlers));
  server.addService(account.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, account))));
  server.addService(userInfo.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, userInfo, userInfoHooks(config.bcryptRounds)))));
  server.addService(userProcess.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, userProcess, userProcessHooks))));
  server.addService(group.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, group))));
  server.addService(groupMember.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, groupMember, groupMemberHooks))));
  server.addService(roleType.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, roleType))));
  server.addService(groupRole.grpc, implement(runtime, crudHandlers(resourceRuntime(schemas, groupRole))));
}
