/**
 * The one guard on where the console goes after a login: a path of the console itself, as React
 * Router resolves it under /console/, and nothing a browser could read as another origin or a
 * script. Refine's login reads `?to=` on its own (useLogin navigates there before the auth
 * provider's `redirectTo`), so the router provider's `parse` passes `to` through this guard too
 * (router-provider.ts); the auth provider's `redirectTo` does the same.
 */

/**
 * `to` when it is a console path: one leading `/` (not `//`, which a browser reads as another host),
 * no backslash (which it reads as `/`), no control character or space, not the login page itself;
 * otherwise undefined.
 */
export function returnPathOf(to: unknown): string | undefined {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//')) return undefined;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\\\u0000-\u0020\u007f]/.test(to)) return undefined;
  if (to === '/login' || /^\/login[/?#]/.test(to)) return undefined;
  return to;
}

/** Only paths of the console itself: a `to` from the address bar never leads elsewhere; else the home page. */
export function safeReturnPath(to: string | null | undefined): string {
  return returnPathOf(to) ?? '/';
}
