import { defineMessages, useT } from '../shell/i18n.tsx';

const messages = defineMessages({
  en: { page: 'Page {page} of {pages} ({total} in all)', previous: 'Previous page', next: 'Next page', pagination: 'Pagination' },
  tr: { page: 'Sayfa {page} / {pages} (toplam {total})', previous: 'Önceki sayfa', next: 'Sonraki sayfa', pagination: 'Sayfalama' },
});

/**
 * Previous / next over a PageResponse (`page` from 0), with where the reader is; the buttons are off
 * at the ends. The pages of the features use it; the generic lists have their own with a page size
 * (resources/pagination.tsx).
 */
export function PageNav({
  page,
  totalPages,
  totalElements,
  onPage,
  label,
}: {
  page: number;
  totalPages: number;
  totalElements: number;
  onPage: (page: number) => void;
  /** The navigation's name, when the page has more than one. */
  label?: string;
}) {
  const t = useT(messages);
  return (
    <nav className="page-nav" aria-label={label ?? t('pagination')}>
      <button type="button" disabled={page <= 0} onClick={() => onPage(page - 1)}>
        {t('previous')}
      </button>
      <span aria-live="polite">{t('page', { page: totalPages === 0 ? 0 : page + 1, pages: totalPages, total: totalElements })}</span>
      <button type="button" disabled={page >= totalPages - 1} onClick={() => onPage(page + 1)}>
        {t('next')}
      </button>
    </nav>
  );
}
