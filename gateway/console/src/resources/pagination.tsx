import { useId } from 'react';
import { useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';

/** The page sizes offered: the interface allows up to 500, a page of people's reading is at most 100. */
export const PAGE_SIZES = [20, 50, 100] as const;

/** Previous and next page, where the list is, and its page size (20, 50 or 100). */
export function Pagination({
  currentPage,
  pageCount,
  total,
  pageSize,
  onPage,
  onPageSize,
}: {
  currentPage: number;
  pageCount: number;
  total: number;
  pageSize: number;
  onPage: (page: number) => void;
  onPageSize: (size: number) => void;
}) {
  const t = useT(crudMessages);
  const sizeId = useId();
  const pages = Math.max(pageCount, 1);
  return (
    <nav aria-label={t('pagination')} className="pagination">
      {/* aria-disabled, not disabled: the button keeps the keyboard's focus on the first and last page */}
      <button type="button" aria-disabled={currentPage <= 1} onClick={() => currentPage > 1 && onPage(currentPage - 1)}>
        {t('previous')}
      </button>
      <span aria-live="polite">{t('pageOf', { page: currentPage, pages, total })}</span>
      <button type="button" aria-disabled={currentPage >= pages} onClick={() => currentPage < pages && onPage(currentPage + 1)}>
        {t('next')}
      </button>
      <label htmlFor={sizeId}>{t('pageSize')}</label>
      <select id={sizeId} value={pageSize} onChange={(event) => onPageSize(Number(event.target.value))}>
        {PAGE_SIZES.map((size) => (
          <option key={size} value={size}>
            {size}
          </option>
        ))}
      </select>
    </nav>
  );
}
