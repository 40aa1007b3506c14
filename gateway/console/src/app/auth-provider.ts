/**
 * Refine's auth provider over the platform's console login (docs/interface.md#auth): the session
 * lives in the SVC_SESSION cookie, so `check` asks GET /api/auth/me (through the cache the shell
 * reads too) and logout asks the platform to end the session. A session that ends under a page
 * (401 SVC-SYS-1001) is handled by SessionEndedRedirect, which keeps the page to return to.
 */
import type { AuthProvider } from '@refinedev/core';
import type { QueryClient } from '@tanstack/react-query';
import { answer, ApiError, platform } from '../shell/api.ts';
import { storeLanguage, type Language } from '../shell/language.ts';
import { safeReturnPath } from './return-path.ts';
import { ensureMe, ME_KEY } from './session.ts';

/** What the login page sends to Refine's login. */
export interface LoginInput {
  userCode: string;
  password: string;
  languageCode: Language;
  captchaToken?: string;
  /** Where to go after the login (a path under /console/), default the home page. */
  to?: string;
}

/**
 * The password step's answer for a user with a second factor (docs/adr/0127-a-second-factor-for-password-logins.md):
 * no session yet; the login page asks for the code (login-second-step.tsx).
 */
export interface SecondFactorChallenge {
  secondFactor: 'totp' | 'enrol';
  challenge: string;
  expiresAt: string;
  enrolment?: { secret: string; otpauthUri: string; qrCode: string };
}

/** The provider over the query cache that holds the user (session.ts). */
export function authProviderFor(queryClient: QueryClient): AuthProvider {
  return {
    login: async ({ userCode, password, languageCode, captchaToken, to }: LoginInput) => {
      try {
        storeLanguage(languageCode);
        const answered = await answer(platform.POST('/api/auth/console-login', { body: { userCode, password, languageCode, captchaToken } }));
        // no session yet: the login page shows the second step
        if (!answered.success) return { success: false, secondFactor: answered satisfies SecondFactorChallenge };
        queryClient.removeQueries({ queryKey: ME_KEY });
        await ensureMe(queryClient);
        return { success: true, redirectTo: safeReturnPath(to) };
      } catch (error) {
        return { success: false, error: error as Error };
      }
    },

    logout: async () => {
      // a session already over is logged out all the same; one opened through a provider also ends there
      // (RP-initiated logout: docs/adr/0133-logout-ends-the-provider-s-session-too.md)
      const out = await answer(platform.POST('/api/auth/oidc/logout')).catch(() => undefined);
      queryClient.clear();
      if (out?.redirectUrl) {
        window.location.assign(out.redirectUrl);
        return { success: true };
      }
      return { success: true, redirectTo: '/login' };
    },

    check: async () => {
      try {
        await ensureMe(queryClient);
        return { authenticated: true };
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) return { authenticated: false, redirectTo: '/login' };
        return { authenticated: false, error: error as Error, redirectTo: '/login' };
      }
    },

    // a 401 SVC-SYS-1001 reaches SessionEndedRedirect through api.ts; other errors are the page's to show
    onError: async () => ({}),

    getIdentity: async () => ensureMe(queryClient),
  };
}
