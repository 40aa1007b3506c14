/**
 * Refine's React Router binding with the return path guarded where Refine reads it: `parse` is how
 * every Refine hook sees the address (useLogin's `to`, Authenticated's), so a `?to=` that is not a
 * console path (return-path.ts) is dropped there, once, whoever reads it.
 */
import { useCallback } from 'react';
import type { RouterProvider } from '@refinedev/core';
import routerProvider from '@refinedev/react-router';
import { returnPathOf } from './return-path.ts';

const parseAddress = routerProvider.parse!;

export const consoleRouterProvider: RouterProvider = {
  ...routerProvider,
  parse: function useGuardedParse() {
    const parse = parseAddress();
    return useCallback(() => {
      const parsed = parse();
      return { ...parsed, params: { ...parsed.params, to: returnPathOf(parsed.params?.to) } };
    }, [parse]);
  },
};
