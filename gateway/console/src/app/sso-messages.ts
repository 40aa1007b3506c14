import { defineMessages } from '../shell/i18n.tsx';

/** The words of single sign-on on the login page. */
export const ssoMessages = defineMessages({
  en: {
    ssoTitle: 'Single sign-on',
    ssoAccount: 'Account number',
    ssoFind: 'Show sign-in options',
    ssoFinding: 'Looking…',
    ssoNone: 'This account offers no single sign-on.',
    ssoSignInWith: 'Sign in with {name}',
    ssoFailed: 'Single sign-on failed: sign in again.',
  },
  tr: {
    ssoTitle: 'Tek oturum açma',
    ssoAccount: 'Hesap numarası',
    ssoFind: 'Giriş seçeneklerini göster',
    ssoFinding: 'Aranıyor…',
    ssoNone: 'Bu hesap tek oturum açma sunmuyor.',
    ssoSignInWith: '{name} ile giriş yap',
    ssoFailed: 'Tek oturum açma başarısız oldu: yeniden giriş yapın.',
  },
});
