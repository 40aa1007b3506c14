import type { SecurityRequirementObject, SecuritySchemeObject } from 'openapi3-ts/oas31';
import { API_KEY_HEADER } from '../middleware/api-key.ts';
import { SESSION_COOKIE } from '@platform/kit/auth/request-token.ts';
import { categoryOf } from '../http/path-category.ts';

/** The credentials of docs/interface.md#authentication, and the personal access token (docs/adr/0134-scoped-personal-access-tokens.md). */
export const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'The core API key (CORE_API_KEY), for login, sessions, logs and admin paths.' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The JWT that login and switch-account set as a cookie (browsers).' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The same JWT as Authorization: Bearer (tools).' },
  accessToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'svcpat_<tokenId>_<secret>',
    description:
      'A personal access token (POST /api/access-token) as Authorization: Bearer, for integrations: no API key or session needed. It works in its tenant with those of its roles its user still holds, until it expires or is revoked; it never creates tokens, changes a password, switches the tenant or logs out (403). Rate-limited per token as well as per address.',
  },
  consoleCsrf: {
    type: 'apiKey',
    in: 'header',
    name: 'X-CSRF-Token',
    description:
      "The console's own page (docs/adr/0084-the-console-s-security-page-policy.md): the SVC_CONSOLE_CSRF cookie its page set, echoed in this header, with Origin this origin. Not a credential for tools.",
  },
};

/** The console's login: its CSRF proof in place of the API key. */
const CONSOLE_LOGIN = /^\/api\/auth\/console-login(\/second-factor)?\/?$/;
/** The operator paths a super user may call from the console (docs/adr/0085-the-console-operator-paths.md). */
const OPERATOR = /^\/api\/(session|logs)(\/|$)/;

/**
 * What a path asks for, from the category the filter chain gives it (http/path-category.ts): nothing
 * on public paths, the API key on API-key paths (on the operator paths, or a super user's session
 * cookie with the console's proof), the JWT as cookie or bearer, or a personal access token, on the rest; the console's login
 * asks for the console's proof alone.
 */
export function securityOf(path: string): SecurityRequirementObject[] {
  if (CONSOLE_LOGIN.test(path)) return [{ consoleCsrf: [] }];
  switch (categoryOf(path)) {
    case 'public':
      return [];
    case 'api-key':
      return OPERATOR.test(path) ? [{ apiKey: [] }, { sessionCookie: [], consoleCsrf: [] }] : [{ apiKey: [] }];
    case 'jwt':
      return [{ sessionCookie: [] }, { bearer: [] }, { accessToken: [] }];
  }
}
