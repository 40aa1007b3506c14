import { authorize } from '@platform/service-kit/auth/caller.ts';
import type { WebhookSettings } from '../../config.ts';
import { crudHandlers, roleOf } from '@platform/service-kit/crud/handlers.ts';
import type { Message, ResourceRuntime } from '@platform/service-kit/crud/runtime.ts';
import type { Handler } from '@platform/service-kit/grpc/server.ts';
import { methodNames } from '@platform/kit/resource/resource.ts';
import { checkTargetUrl } from '../../webhooks/target-address.ts';

/**
 * The engine's create and update of webhook-subscription, each checking the url it writes (its host
 * resolved, every address allowed: target-address.ts) after the role check and before the write's
 * transaction opens, so that a slow name server holds no database connection.
 */
export function targetCheckedWrites(rt: ResourceRuntime, settings: WebhookSettings): Record<string, Handler<never, unknown>> {
  const base = crudHandlers(rt);
  const names = methodNames(rt.resource);
  const role = roleOf(rt.resource, 'write');
  const checked = (name: string): Handler<never, unknown> => {
    const inner = base[name] as Handler<Message, unknown>;
    const handler = async (request: Message, ctx: Parameters<Handler<Message, unknown>>[1]) => {
      authorize(ctx, role);
      const record = request.webhookSubscription as Message | undefined;
      if (typeof record?.url === 'string') await checkTargetUrl(record.url, settings);
      return inner(request, ctx);
    };
    return Object.assign(handler, { roles: inner.roles }) as Handler<never, unknown>;
  };
  return { [names.create]: checked(names.create), [names.update]: checked(names.update) };
}
