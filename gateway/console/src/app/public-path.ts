/**
 * Whether an address of the console is a page outside the session (the login, an extension's
 * public page such as a share link's): there the console asks for no logged-in user.
 */
import { matchPath } from 'react-router';
import { extensions } from './extensions.ts';

const PUBLIC_PATHS = ['/login', ...extensions.flatMap((extension) => extension.publicPages ?? []).map((page) => `/${page.path}`)];

/** `pathname` below the console's base (`/login`, `/share/abc`), as the router sees it. */
export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((path) => matchPath(path, pathname) !== null);
}
