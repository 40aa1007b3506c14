import { defineMessages } from '../shell/i18n.tsx';

/** The words of a list's column chooser and its rarer filters. */
export const listMessages = defineMessages({
  en: {
    moreFilters: 'More filters',
    fewerFilters: 'Fewer filters',
    columns: 'Columns',
    columnsLegend: 'Columns shown',
    defaultColumns: 'Default columns',
    startsWith: '{field} starts with',
    contains: '{field} contains',
  },
  tr: {
    moreFilters: 'Diğer filtreler',
    fewerFilters: 'Daha az filtre',
    columns: 'Sütunlar',
    columnsLegend: 'Gösterilen sütunlar',
    defaultColumns: 'Varsayılan sütunlar',
    startsWith: '{field} ile başlar',
    contains: '{field} içerir',
  },
});
