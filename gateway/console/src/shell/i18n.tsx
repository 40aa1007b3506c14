/**
 * The console's own words, in English and Turkish. Each feature keeps its messages next to its code
 * (`defineMessages`) and reads them with `useT()`; the platform's error messages come from the API
 * already in the chosen language (api.ts sends Accept-Language).
 *
 * @example
 * const messages = defineMessages({ en: { approve: 'Approve' }, tr: { approve: 'Onayla' } });
 * const t = useT(messages); t('approve');
 */
import { createContext, useContext } from 'react';
import type { Language } from './language.ts';

export type Messages<K extends string> = { readonly en: Readonly<Record<K, string>>; readonly tr: Readonly<Record<K, string>> };

/** Both languages must name the same keys: a message missing in Turkish is a compile error. */
export function defineMessages<K extends string>(messages: Messages<K>): Messages<K> {
  return messages;
}

export const LanguageContext = createContext<Language>('en');

/** `t(key, {name: 'x'})`: the message in the console's language, `{name}` placeholders filled. */
export function useT<K extends string>(messages: Messages<K>): (key: K, vars?: Readonly<Record<string, string | number>>) => string {
  const language = useContext(LanguageContext);
  return (key, vars) => fill(messages[language][key], vars);
}

export function fill(text: string, vars?: Readonly<Record<string, string | number>>): string {
  if (!vars) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
