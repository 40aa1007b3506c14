/**
 * The tenant the documents pages work in: the user's current one (GET /api/auth/me). A super user
 * changes it with the shell's tenant switcher, which reloads the access and so these pages.
 */
import { useAccess } from '../../shell/access.tsx';

export function useTenantId(): number {
  return useAccess().me.crProcessId;
}
