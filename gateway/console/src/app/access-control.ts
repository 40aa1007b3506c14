/**
 * Refine's access control over the platform's roles (decisions.md §2): a Refine action on a resource
 * asks for `<path>:read` (list, show), `<path>:write` (create, edit) or `<path>:delete`; any other
 * action is a role of its own (`accrual:approve`). A super user may do everything.
 */
import type { AccessControlProvider } from '@refinedev/core';
import type { QueryClient } from '@tanstack/react-query';
import { accessOf, type Me } from '../shell/access.tsx';
import { ME_KEY } from './session.ts';

const ROLE_OF_ACTION: Readonly<Record<string, string>> = { list: 'read', show: 'read', create: 'write', edit: 'write', clone: 'write', delete: 'delete' };

/** The role code a Refine action on `resource` needs. */
export function roleFor(resource: string, action: string): string {
  return `${resource}:${ROLE_OF_ACTION[action] ?? action}`;
}

/** The provider over the user in the query cache (ME_KEY), so that it follows a tenant switch at once. */
export function accessControlFor(queryClient: QueryClient): AccessControlProvider {
  return {
    can: async ({ resource, action }) => {
      const me = queryClient.getQueryData<Me>(ME_KEY);
      if (!me || !resource) return { can: false };
      return { can: accessOf(me).can(roleFor(resource, action)) };
    },
    options: { buttons: { enableAccessControl: true, hideIfUnauthorized: true } },
  };
}
