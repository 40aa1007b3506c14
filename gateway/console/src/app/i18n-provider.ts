/**
 * Refine's i18n provider over the console's own messages: `translate` finds a key among the
 * shell's words in the current language, `changeLocale` stores the language (sent as
 * Accept-Language from then on, so the platform's errors follow) and re-renders the console.
 */
import type { I18nProvider } from '@refinedev/core';
import { fill } from '../shell/i18n.tsx';
import { storeLanguage, type Language } from '../shell/language.ts';
import { shellMessages } from './messages.ts';

/** The provider of one language; the shell makes a new one when the language changes. */
export function i18nProviderFor(language: Language, setLanguage: (language: Language) => void): I18nProvider {
  const words: Readonly<Record<string, string>> = shellMessages[language];
  return {
    translate: (key, options, defaultMessage) => (key in words ? fill(words[key] ?? key, options) : (defaultMessage ?? key)),
    changeLocale: (locale) => {
      const next: Language = locale === 'tr' ? 'tr' : 'en';
      storeLanguage(next);
      setLanguage(next);
    },
    getLocale: () => language,
  };
}
