import type { ReactNode } from 'react';
import { useT } from '../../shell/i18n.tsx';
import type { Loaded } from '../../shell/use-load.ts';
import { PageNav } from '../../ui/page-nav.tsx';
import { operationsMessages } from './messages.ts';

/** A column of an operator table: its header, and what a row shows in it. */
export interface OperatorColumn<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The cell that names the row (a `<th scope="row">`): the session's user. */
  names?: boolean;
}

/** The part of a PageResponse the table reads (docs/interface.md#lists). */
interface RowsPage<Row> {
  content: Row[];
  page: number;
  totalPages: number;
  totalElements: number;
}

/**
 * The table of an operator page (sessions, session history, exception log): one page of rows loaded
 * by useLoad, the platform's message when the load failed, "nothing found" for an empty page, and
 * previous / next under it. The caption (the page's title) is for screen readers only.
 *
 * @example
 * <OperatorTable caption={t('historyTitle')} rows={history} rowKey={(s) => s.sessionId} columns={[{ header: t('user'), cell: (s) => s.userCode, names: true }]} onPage={setPage} />
 */
export function OperatorTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  onPage,
}: {
  caption: string;
  columns: readonly OperatorColumn<Row>[];
  rows: Loaded<RowsPage<Row>>;
  rowKey: (row: Row) => string;
  onPage: (page: number) => void;
}) {
  const t = useT(operationsMessages);
  return (
    <>
      {rows.error && <p role="alert">{rows.error}</p>}
      <table className="cards" aria-busy={rows.loading}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.value?.content.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) =>
                column.names ? (
                  <th key={column.header} scope="row" data-label={column.header}>
                    {column.cell(row)}
                  </th>
                ) : (
                  <td key={column.header} data-label={column.header}>
                    {column.cell(row)}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {rows.value?.content.length === 0 && <p>{t('none')}</p>}
      {rows.value && <PageNav page={rows.value.page} totalPages={rows.value.totalPages} totalElements={rows.value.totalElements} onPage={onPage} />}
    </>
  );
}
