/** The console's language (`en` or `tr`): chosen at login, kept in localStorage, sent as Accept-Language. */
export type Language = 'en' | 'tr';

const KEY = 'console.language';

export function currentLanguage(): Language {
  const stored = globalThis.localStorage?.getItem(KEY);
  if (stored === 'en' || stored === 'tr') return stored;
  return globalThis.navigator?.language?.toLowerCase().startsWith('tr') ? 'tr' : 'en';
}

export function storeLanguage(language: Language): void {
  globalThis.localStorage?.setItem(KEY, language);
  document.documentElement.lang = language;
}
