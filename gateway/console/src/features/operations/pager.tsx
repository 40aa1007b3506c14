import { useT } from '../../shell/i18n.tsx';
import { operationsMessages } from './messages.ts';

/** Previous / next over a PageResponse, with where the reader is; the buttons are off at the ends. */
export function Pager({
  page,
  totalPages,
  totalElements,
  onPage,
}: {
  page: number;
  totalPages: number;
  totalElements: number;
  onPage: (page: number) => void;
}) {
  const t = useT(operationsMessages);
  return (
    <nav className="ops-pager" aria-label={t('pagination')}>
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
