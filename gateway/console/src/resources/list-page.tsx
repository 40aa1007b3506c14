import { useContext, useRef } from 'react';
import { Link } from 'react-router';
import { useInvalidate, useTable } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel, pluralLabel, singularLabel } from './labels.ts';
import { listColumns, moreFilters, primaryFilters } from './fields.ts';
import { useColumns } from './column-choice.ts';
import { ColumnChooser } from './column-chooser.tsx';
import { ExportMenu } from './export-menu.tsx';
import { FieldValue } from './field-value.tsx';
import { ListFilters } from './list-filters.tsx';
import { Pagination } from './pagination.tsx';
import { SortHeader } from './sort-header.tsx';
import { StatsStrip } from './stats-strip.tsx';
import { TenantPicker } from './tenant-picker.tsx';
import { useTenant } from './use-tenant.ts';
import { recordPath } from './record-link.ts';
import { useResourceExtensions } from '../extensions/context.ts';
import { Skeleton } from '../ui/skeleton.tsx';
import { SelectAllBox, SelectionBar, SelectRowBox, useBulkOffer, useSelection } from './bulk-actions.tsx';
import { bulkMessages } from './bulk-messages.ts';
import './list.css';

type Row = Record<string, unknown>;

/**
 * A resource's records, one page at a time (`POST /api/{path}/list`): search, the declared filters
 * and the rarer ones behind "more filters", the declared columns or those the user chose (kept per
 * user: column-choice.ts), sortable by their headers, a stats strip, paging, and for a super user
 * the tenant shown; where the roles allow a bulk action, a checkbox per row and one for the page, and
 * the selection's actions (bulk-actions.tsx). The state lives in the address (Refine's syncWithLocation), so a reload or a
 * login returns to it.
 */
export function ListPage({ resource }: { resource: ConsoleResource }) {
  const t = useT(crudMessages);
  const tb = useT(bulkMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const [tenant, setTenant, superUser] = useTenant();
  const [columns, chooseColumns] = useColumns(resource);
  // the record's link: on its name when shown, else on the first column that is not another record's
  const linkField = columns.some((field) => field.name === resource.display)
    ? resource.display
    : (columns.find((field) => !field.references) ?? columns[0])?.name;
  const table = useTable<Row>({
    resource: resource.path,
    pagination: { pageSize: 20, mode: 'server' },
    sorters: { mode: 'server' },
    filters: { permanent: [{ field: 'crProcessId', operator: 'eq', value: tenant }], defaultBehavior: 'replace', mode: 'server' },
    syncWithLocation: true,
    queryOptions: { retry: false },
  });
  // named as its menu entry, when it has one
  const plural = pluralLabel(resource, language);
  const rows = table.result.data;
  const rowActions = useResourceExtensions(resource.path).flatMap((part) => part.recordActions ?? []);
  const invalidate = useInvalidate();
  const offer = useBulkOffer(resource);
  const selection = useSelection(rows, resource.key);
  const selectAll = useRef<HTMLInputElement>(null);
  const width = columns.length + (rowActions.length > 0 ? 1 : 0) + (offer.any ? 1 : 0);

  return (
    <>
      <div className="page-head">
        <PageTitle title={plural}>{plural}</PageTitle>
        {resource.operations.create && access.can(`${resource.path}:write`) ? (
          <Link className="button primary" to={`/${resource.path}/new`}>
            {t('create')}
            <span className="visually-hidden"> {singularLabel(resource, language)}</span>
          </Link>
        ) : null}
      </div>
      {superUser ? <TenantPicker value={tenant} onChange={setTenant} /> : null}
      {resource.operations.stats ? <StatsStrip resource={resource} crProcessId={tenant} superUser={superUser} /> : null}
      <ListFilters
        primary={primaryFilters(resource)}
        more={moreFilters(resource)}
        filters={table.filters}
        crProcessId={tenant}
        onApply={(filters) => {
          table.setFilters(filters, 'replace');
          table.setCurrentPage(1);
        }}
      />
      <ColumnChooser columns={listColumns(resource)} shown={columns} onChoose={chooseColumns} />
      <ExportMenu
        resource={resource}
        filters={table.filters}
        sorters={table.sorters}
        ids={selection.selected.map((row) => row[resource.key] as string | number)}
      />
      <ErrorAlert error={table.tableQuery.error} />
      {offer.any ? (
        <SelectionBar
          resource={resource}
          rows={selection.selected}
          offer={offer}
          done={() => {
            selection.clear();
            // the bar goes with the selection: the keyboard goes on from the page's checkbox
            selectAll.current?.focus();
            // the list and its statistics alike
            void invalidate({ resource: resource.path, invalidates: ['all'] });
          }}
        />
      ) : null}
      <div className="table-scroll">
        <table className="cards">
          <caption className="visually-hidden">{t('records', { resource: plural })}</caption>
          <thead>
            <tr>
              {offer.any ? (
                <th scope="col" className="select-cell">
                  <SelectAllBox rows={rows.length} selected={selection.selected.length} onChange={selection.toggleAll} box={selectAll} />
                </th>
              ) : null}
              {columns.map((field) => (
                <SortHeader key={field.name} field={field} label={fieldLabel(field, language)} sorters={table.sorters} onSort={table.setSorters} />
              ))}
              {rowActions.length > 0 ? <th scope="col">{t('actions')}</th> : null}
            </tr>
          </thead>
          <tbody aria-busy={table.tableQuery.isFetching}>
            {rows.map((row) => (
              <tr key={String(row[resource.key])}>
                {offer.any ? (
                  <td className="select-cell" data-label={tb('selectColumn')}>
                    <SelectRowBox resource={resource} row={row} checked={selection.isSelected(row)} onChange={(on) => selection.toggle(row, on)} />
                  </td>
                ) : null}
                {columns.map((field) => (
                  <td key={field.name} data-label={fieldLabel(field, language)}>
                    {field.name === linkField ? (
                      <Link to={recordPath(resource, row)}>
                        {row[field.name] === undefined || row[field.name] === null || row[field.name] === '' || field.references ? (
                          String(row[resource.key])
                        ) : (
                          <FieldValue field={field} value={row[field.name]} record={row} />
                        )}
                      </Link>
                    ) : (
                      <FieldValue field={field} value={row[field.name]} record={row} />
                    )}
                  </td>
                ))}
                {rowActions.length > 0 ? (
                  <td data-label={t('actions')}>
                    <div className="actions">
                      {rowActions.map((Actions, index) => (
                        <Actions key={index} resource={resource} record={row} refresh={() => void table.tableQuery.refetch()} />
                      ))}
                    </div>
                  </td>
                ) : null}
              </tr>
            ))}
            {rows.length === 0 && !table.tableQuery.isLoading ? (
              <tr>
                <td colSpan={width}>{t('noRecords')}</td>
              </tr>
            ) : null}
            {table.tableQuery.isLoading ? (
              <tr>
                <td colSpan={width}>
                  <Skeleton shape="rows" rows={5} />
                </td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      <Pagination
        currentPage={table.currentPage}
        pageCount={table.pageCount}
        total={table.result.total ?? 0}
        pageSize={table.pageSize}
        onPage={table.setCurrentPage}
        onPageSize={(size) => {
          table.setPageSize(size);
          table.setCurrentPage(1);
        }}
      />
    </>
  );
}
