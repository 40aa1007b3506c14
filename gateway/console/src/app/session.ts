/**
 * The logged-in user, as GET /api/auth/me answers (docs/interface.md#auth), kept in the query cache
 * under ME_KEY: the auth provider's `check` and the shell read the same entry, and a tenant switch,
 * a logout or a session's end drop it.
 */
import type { QueryClient } from '@tanstack/react-query';
import { answer, platform } from '../shell/api.ts';
import type { Me } from '../shell/access.tsx';

/** The query-cache key of the logged-in user. */
export const ME_KEY = ['console', 'me'] as const;

/** How long a fetched `me` is taken as current: roles change rarely, and a switch refetches it. */
const ME_FRESH_MS = 60_000;

/** GET /api/auth/me: the user, its current tenant and its roles there. */
export function fetchMe(): Promise<Me> {
  return answer(platform.GET('/api/auth/me'));
}

/** The user from the cache, or from the API when the cache has none (or an old one). */
export function ensureMe(queryClient: QueryClient): Promise<Me> {
  return queryClient.fetchQuery({ queryKey: ME_KEY, queryFn: fetchMe, staleTime: ME_FRESH_MS });
}

/** The query of the user, for useQuery: the same entry `check` fills. */
export const meQuery = { queryKey: ME_KEY, queryFn: fetchMe, staleTime: ME_FRESH_MS };
