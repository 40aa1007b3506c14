import { defineMessages } from '../../shell/i18n.tsx';

/** The global search's words (search-box.tsx); its kinds are named by the resources' label catalogue. */
export const searchMessages = defineMessages({
  en: {
    label: 'Search',
    placeholder: 'Search partners, contacts, products…',
    shortcut: 'Ctrl+K or /',
    results: 'Search results',
    searching: 'Searching…',
    noResults: 'Nothing found for “{q}”.',
    found: '{count} found.',
    more: 'more match: type more of it',
    partial: 'Not everything could be searched just now: {kinds}.',
    failed: 'The search failed: {message}',
  },
  tr: {
    label: 'Ara',
    placeholder: 'İş ortağı, kişi, ürün ara…',
    shortcut: 'Ctrl+K veya /',
    results: 'Arama sonuçları',
    searching: 'Aranıyor…',
    noResults: '“{q}” için bir şey bulunamadı.',
    found: '{count} sonuç.',
    more: 'daha fazlası var: biraz daha yazın',
    partial: 'Şu anda her yerde aranamadı: {kinds}.',
    failed: 'Arama başarısız: {message}',
  },
});
