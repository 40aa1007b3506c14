/**
 * What the password guards count and say (docs/interface.md#limits): their limits, and the refusals
 * of the login guard and of the share-link password guard in every language.
 */
import type { Language } from '@platform/kit/i18n/messages.ts';

/** Wrong passwords for one userCode from one address within LOGIN_WINDOW_SECONDS before logins of it are refused (docs/interface.md#limits). */
export const LOGIN_FAILURES_PER_USER = 5;
/** Wrong passwords from one address across all users within LOGIN_WINDOW_SECONDS before its logins are refused. */
export const LOGIN_FAILURES_PER_ADDRESS = 50;
/** The window wrong passwords are counted in, from the first of them (the refusals below say 15 minutes). */
export const LOGIN_WINDOW_SECONDS = 15 * 60;

const USER_REFUSAL = {
  en: `Too many failed logins: at most ${LOGIN_FAILURES_PER_USER} wrong passwords per user and address in 15 minutes`,
  tr: `Çok fazla başarısız giriş: 15 dakikada kullanıcı ve adres başına en fazla ${LOGIN_FAILURES_PER_USER} hatalı şifre`,
};
const ADDRESS_REFUSAL = {
  en: `Too many failed logins: at most ${LOGIN_FAILURES_PER_ADDRESS} wrong passwords per address in 15 minutes`,
  tr: `Çok fazla başarısız giriş: 15 dakikada adres başına en fazla ${LOGIN_FAILURES_PER_ADDRESS} hatalı şifre`,
};
const BUSY_REFUSAL = {
  en: 'Too many logins in progress for this user from this address: try again in a moment',
  tr: 'Bu kullanıcı için bu adresten devam eden çok fazla giriş var: biraz sonra tekrar deneyin',
};

/**
 * What one password guard counts and says: the login guard's wrong passwords per user, and the
 * share-link guard's per link (docs/interface.md#limits: "The sixth wrong share-link password (or login
 * password) for one link or user from one IP within 15 minutes gets 429"). `name` sets its keys apart.
 */
export interface PasswordGuardKind {
  name: string;
  userRefusal: Record<Language, string>;
  addressRefusal: Record<Language, string>;
  busyRefusal: Record<Language, string>;
}

export const LOGIN_GUARD: PasswordGuardKind = { name: 'login', userRefusal: USER_REFUSAL, addressRefusal: ADDRESS_REFUSAL, busyRefusal: BUSY_REFUSAL };

/** The share-link password guard: the same counts, keyed by the link's token in place of a userCode. */
export const SHARE_PASSWORD_GUARD: PasswordGuardKind = {
  name: 'share-password',
  userRefusal: {
    en: `Too many wrong share-link passwords: at most ${LOGIN_FAILURES_PER_USER} per link and address in 15 minutes`,
    tr: `Çok fazla hatalı paylaşım bağlantısı şifresi: 15 dakikada bağlantı ve adres başına en fazla ${LOGIN_FAILURES_PER_USER}`,
  },
  addressRefusal: {
    en: `Too many wrong share-link passwords: at most ${LOGIN_FAILURES_PER_ADDRESS} per address in 15 minutes`,
    tr: `Çok fazla hatalı paylaşım bağlantısı şifresi: 15 dakikada adres başına en fazla ${LOGIN_FAILURES_PER_ADDRESS}`,
  },
  busyRefusal: {
    en: 'Too many password checks in progress for this link from this address: try again in a moment',
    tr: 'Bu bağlantı için bu adresten devam eden çok fazla şifre denetimi var: biraz sonra tekrar deneyin',
  },
};
