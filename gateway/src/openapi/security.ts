import type { SecurityRequirementObject, SecuritySchemeObject } from 'openapi3-ts/oas31';
import { API_KEY_HEADER } from '../middleware/api-key.ts';
import { SESSION_COOKIE } from '@platform/libs/auth/request-token.ts';
import { categoryOf } from '../middleware/paths.ts';

/** The three credentials of docs/interface.md#authentication. */
export const SECURITY_SCHEMES: Record<string, SecuritySchemeObject> = {
  apiKey: { type: 'apiKey', in: 'header', name: API_KEY_HEADER, description: 'The core API key (CORE_API_KEY), for login, sessions, logs and admin paths.' },
  sessionCookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The JWT that login and switch-account set as a cookie (browsers).' },
  bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The same JWT as Authorization: Bearer (tools).' },
};

/**
 * What a path asks for, from the category the filter chain gives it (middleware/paths.ts): nothing
 * on public paths, the API key on API-key paths, the JWT as cookie or bearer on the rest.
 */
export function securityOf(path: string): SecurityRequirementObject[] {
  switch (categoryOf(path)) {
    case 'public':
      return [];
    case 'api-key':
      return [{ apiKey: [] }];
    case 'jwt':
      return [{ sessionCookie: [] }, { bearer: [] }];
  }
}
