/** The endpoint categories of docs/interface.md#path-categories. */
export type PathCategory = 'public' | 'api-key' | 'jwt';

// /api/docs/**: the API document and its reference page (docs/adr/0026-serving-the-api-document.md), on the public tier
// /api/dms-file/download/{id}: a signed URL, "no session needed" (docs/interface.md#files); its signature
// is the credential, checked by dms-svc (docs/adr/0030-the-byte-path-and-stored-bytes.md)
// /console/**: the console's built files and manifest, served before the API key and the limiter
// (docs/adr/0084-the-console-s-security-page-policy.md); /api/auth/console-login: its login, with its own CSRF proof in
// place of the API key (console/csrf.ts), and its second step (docs/adr/0127-a-second-factor-for-password-logins.md);
// /api/auth/oidc/{providers,callback,:id/start}: single sign-on's login-page list and browser redirects,
// before any session (docs/adr/0131-sign-in-state-is-kept-by-core-svc.md)
const PUBLIC = [
  /^\/console(\/|$)/,
  /^\/api\/auth\/console-login(\/second-factor)?\/?$/,
  /^\/api\/auth\/oidc\/(providers|callback|[^/]+\/start)\/?$/,
  /^\/actuator\/health\/?$/,
  /^\/api\/health\/?$/,
  /^\/api\/dms-share-link\/public\//,
  /^\/api\/docs(\/|$)/,
  /^\/api\/dms-file\/download\//,
];
const API_KEY = [/^\/api\/auth\/login(\/second-factor)?\/?$/, /^\/api\/session(\/|$)/, /^\/api\/logs(\/|$)/, /^\/api\/admin(\/|$)/];

export function categoryOf(path: string): PathCategory {
  if (PUBLIC.some((pattern) => pattern.test(path))) return 'public';
  if (API_KEY.some((pattern) => pattern.test(path))) return 'api-key';
  return 'jwt';
}
