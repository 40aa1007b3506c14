import type { PlatformPurpose } from '../db/tenant-scope.ts';
import type { Handler } from './server.ts';

/**
 * Service methods whose database work runs on the platform's own path for `purpose`, whoever
 * calls them (docs/adr/0151-row-level-security-the-second-wall.md): every tenant, under a named,
 * counted purpose, instead of the caller's scope. Each handler is wrapped, not changed, and keeps
 * the roles its checks consult. The purpose is named once, here, for the whole set.
 *
 * @example
 * return onPlatformPath('identity', { me, switchAccount });
 */
export function onPlatformPath<H extends Record<string, Handler<never, unknown>>>(purpose: PlatformPurpose, handlers: H): H {
  const wrapped: Record<string, Handler<never, unknown>> = {};
  for (const [name, handler] of Object.entries(handlers)) {
    wrapped[name] = Object.assign((request: never, ctx: Parameters<typeof handler>[1]) => handler(request, ctx), {
      ...(handler.roles ? { roles: handler.roles } : {}),
      ...(handler.readsAlong ? { readsAlong: handler.readsAlong } : {}),
      scope: purpose,
    });
  }
  return wrapped as H;
}
