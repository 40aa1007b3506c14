/** The share-link recipient's page's words, in English and Turkish. */
import { defineMessages } from '../../shell/i18n.tsx';

export const sharePublicMessages = defineMessages({
  en: {
    title: 'Shared file',
    language: 'Language',
    checking: 'Checking the link…',
    file: 'File',
    size: 'Size',
    download: 'Download',
    passwordNeeded: 'This file is protected by a password.',
    password: 'Password',
    open: 'Open',
    wrongPassword: 'Wrong password.',
    gone: 'This link has expired, was deactivated or has been used up.',
    unknown: 'There is no such link.',
    tooMany: 'Too many wrong passwords. Try again later.',
    failed: 'The file cannot be reached now ({status}).',
  },
  tr: {
    title: 'Paylaşılan dosya',
    language: 'Dil',
    checking: 'Bağlantı denetleniyor…',
    file: 'Dosya',
    size: 'Boyut',
    download: 'İndir',
    passwordNeeded: 'Bu dosya parola ile korunuyor.',
    password: 'Parola',
    open: 'Aç',
    wrongPassword: 'Parola yanlış.',
    gone: 'Bu bağlantının süresi dolmuş, devre dışı bırakılmış ya da kullanım hakkı bitmiş.',
    unknown: 'Böyle bir bağlantı yok.',
    tooMany: 'Çok fazla yanlış parola girildi. Daha sonra yeniden deneyin.',
    failed: 'Dosyaya şu anda ulaşılamıyor ({status}).',
  },
});
