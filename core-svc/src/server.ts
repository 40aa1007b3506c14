import type { Server } from '@grpc/grpc-js';
import { registerImport } from '@platform/service-kit/import/service.ts';
import { processJobSender } from '@platform/service-kit/jobs/process-sender.ts';
import { importTargets } from './import-targets.ts';
import type { CoreConfig } from './config.ts';
import { implement, type Runtime } from '@platform/service-kit/grpc/server.ts';
import { registerResources } from '@platform/service-kit/crud/register-resources.ts';
import type { ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import { AuthServiceService } from '@platform/kit/gen/platform/core/v1/auth.ts';
import { ExceptionLogServiceService } from '@platform/kit/gen/platform/core/v1/exception_log.ts';
import { SessionServiceService } from '@platform/kit/gen/platform/core/v1/session.ts';
import { AccessTokenServiceService } from '@platform/kit/gen/platform/core/v1/access_token.ts';
import { accessTokenHandlers } from './access-tokens/access-token.service.ts';
import { SecondFactorServiceService } from '@platform/kit/gen/platform/core/v1/second_factor.ts';
import { OidcSignInServiceService } from '@platform/kit/gen/platform/core/v1/identity_provider.ts';
import { oidcSignInHandlers } from './sso/oidc.service.ts';
import { identityProviderHooks } from './resources/identity-provider/identity-provider.operations.ts';
import { authHandlers } from './auth/auth.service.ts';
import { exceptionLogHandlers } from './logs/exception-log.service.ts';
import { checkSession } from './sessions/session-check.ts';
import { secondFactorHandlers } from './second-factor/second-factor.service.ts';
import { sessionHandlers } from './sessions/session.service.ts';
import { recordSessionsSeen } from './sessions/sessions-seen.ts';
import { registerHistory } from '@platform/service-kit/history/list-history.ts';
import { SCHEMA, schemas } from './db.ts';
import { coreResources } from '@platform/contracts/core/index.ts';
import { groupMemberHooks } from './resources/group-member/group-member.operations.ts';
import { licenseHooks } from './resources/license/license.operations.ts';
import { tenantMembers } from './resources/user-info/tenant-members.ts';
import { userInfoHooks } from './resources/user-info/user-info.operations.ts';
import { userProcessHooks } from './resources/user-process/user-process.operations.ts';
import { redeliver } from './resources/webhook-delivery/redeliver.ts';
import { rotateSecret } from './resources/webhook-subscription/rotate-secret.ts';
import { targetCheckedWrites } from './resources/webhook-subscription/target-check.ts';
import { webhookSubscriptionHooks } from './resources/webhook-subscription/webhook-subscription.operations.ts';

/** Registers the core service's gRPC implementations: auth, sessions, logs, and every resource and its history. */
export function register(server: Server, runtime: Runtime, config: CoreConfig): void {
  server.addService(AuthServiceService, implement(runtime, authHandlers(config, runtime.tokens)));
  server.addService(
    SessionServiceService,
    implement(runtime, { ...sessionHandlers(config), checkSession: checkSession(runtime.tokens), recordSessionsSeen: recordSessionsSeen(runtime.tokens) }),
  );
  server.addService(ExceptionLogServiceService, implement(runtime, exceptionLogHandlers));
  server.addService(AccessTokenServiceService, implement(runtime, accessTokenHandlers));
  server.addService(SecondFactorServiceService, implement(runtime, secondFactorHandlers(config, runtime.tokens)));
  server.addService(OidcSignInServiceService, implement(runtime, oidcSignInHandlers(config, runtime.tokens, runtime.log)));
  registerResources(server, runtime, schemas, coreResources, {
    'user-info': { hooks: userInfoHooks(config.bcryptRounds), handlers: () => ({ listTenantMembers: tenantMembers() }) },
    'user-process': { hooks: userProcessHooks },
    'group-member': { hooks: groupMemberHooks },
    license: { hooks: licenseHooks },
    'identity-provider': { hooks: identityProviderHooks(config.appEnv) },
    'webhook-subscription': {
      hooks: webhookSubscriptionHooks(),
      handlers: (runtimes) => ({
        ...targetCheckedWrites(runtimeOf(runtimes, 'webhook-subscription'), config.webhooks),
        rotateWebhookSubscriptionSecret: rotateSecret(runtimeOf(runtimes, 'webhook-subscription')),
      }),
    },
    'webhook-delivery': { handlers: (runtimes) => ({ redeliverWebhookDelivery: redeliver(runtimeOf(runtimes, 'webhook-delivery')) }) },
  });
  registerHistory(server, runtime, coreResources, SCHEMA);
  registerImport(
    server,
    runtime,
    importTargets.map((target) => target.resource),
    'core',
    processJobSender(),
  );
}

function runtimeOf(runtimes: ReadonlyMap<string, ResourceRuntime>, path: string): ResourceRuntime {
  const rt = runtimes.get(path);
  if (!rt) throw new Error(`no runtime for ${path}`);
  return rt;
}
