/**
 * Who the console's user is and what the roles allow, from GET /api/auth/me (its `roles`: the role
 * codes the user holds in the current tenant, docs/interface.md#auth). What the roles do not grant is
 * not offered; the services refuse it anyway (decisions.md §2).
 */
import { createContext, useContext } from 'react';
import type { Me as MeAnswer } from '@platform/client/schema.d.ts';

/** The logged-in user as GET /api/auth/me answers it (the API document's `Me`): its tenant and its role codes there (`branch:read`). */
export type Me = MeAnswer;

export interface Access {
  me: Me;
  /** Whether the user may do `code` (`branch:write`): a super user may do everything. */
  can(code: string): boolean;
}

export function accessOf(me: Me): Access {
  const roles = new Set(me.roles);
  return { me, can: (code) => me.superUser || roles.has(code) };
}

export const AccessContext = createContext<Access | null>(null);

/** The logged-in user's access; only inside the logged-in shell. */
export function useAccess(): Access {
  const access = useContext(AccessContext);
  if (!access) throw new Error('useAccess outside the logged-in console');
  return access;
}
