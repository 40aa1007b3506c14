/**
 * The records that refer to a record, on its page: one short list per reference the manifest's
 * `related` names (a partner's branches, contacts, contracts), each paged by five, with a link to the
 * full list so filtered and a "new" button whose form has the reference filled in (not for files,
 * made by an upload, nor for a list through a reference: a partner's accruals, through their contracts). Derived from the contracts' `references` (and a file's entityType/entityId), so
 * a new resource's references give their lists with no console code.
 */
import { useContext, useState } from 'react';
import { Link } from 'react-router';
import type { ConsoleRelated, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { answer, platform } from '../shell/api.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { useLoad } from '../shell/use-load.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { useManifest } from './manifest.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel, pluralLabel, singularLabel } from './labels.ts';
import { defaultColumns, listColumns } from './fields.ts';
import { FieldValue } from './field-value.tsx';
import { recordPath } from './record-link.ts';
import { Skeleton } from '../ui/skeleton.tsx';

type Row = Record<string, unknown>;

/** Rows per related list: a glance, the full list is one link away. */
const RELATED_SIZE = 5;
/** Columns of a related list beyond its link: the referencing resource's own first fields. */
const RELATED_COLUMNS = 3;

/** Every related list of `record` the user may read. */
export function RelatedLists({ resource, record }: { resource: ConsoleResource; record: Row }) {
  const t = useT(crudMessages);
  const access = useAccess();
  const resources = useManifest().resources;
  const lists = resource.related.flatMap((related) => {
    const source = resources.find((each) => each.path === related.resource);
    return source && source.operations.list && access.can(`${source.path}:read`) ? [{ related, source }] : [];
  });
  if (lists.length === 0) return null;
  return (
    <section className="related-lists" aria-label={t('related')}>
      {lists.map(({ related, source }) => (
        <RelatedList
          key={`${related.resource}.${related.field}`}
          related={related}
          source={source}
          record={record}
          named={lists.filter((each) => each.source === source).length > 1}
        />
      ))}
    </section>
  );
}

/** One related list: `POST /api/{source}/list` filtered by the reference, five rows a page. */
function RelatedList({ related, source, record, named }: { related: ConsoleRelated; source: ConsoleResource; record: Row; named: boolean }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const [page, setPage] = useState(0);
  const value = record[related.key];
  const crProcessId = record.crProcessId;
  const rows = useLoad(
    (signal) =>
      answer(
        platform.POST('/api/{resource}/list', {
          params: { path: { resource: source.path } },
          body: { page, size: RELATED_SIZE, filter: { crProcessId, ...filterOf(related, value) } },
          signal,
        }),
      ),
    [source.path, related.field, related.type?.value, value, crProcessId, page],
  );
  const field = source.fields.find((each) => each.name === related.field);
  const plural = pluralLabel(source, language);
  const title = named && field ? t('relatedTitle', { resource: plural, field: fieldLabel(field, language) }) : plural;
  const linkField = source.display;
  const linkLabel = fieldLabel(source.fields.find((each) => each.name === linkField) ?? { name: linkField }, language);
  // the declared columns first (list.columns), then the others in the list's order
  const columns = [...new Set([...defaultColumns(source), ...listColumns(source)])]
    .filter(
      (each) =>
        each.name !== related.field && each.name !== related.type?.field && each.name !== linkField && each.name !== source.key && !COMMON.has(each.name),
    )
    .slice(0, RELATED_COLUMNS);
  const content = rows.value?.content ?? [];
  const total = rows.value?.totalElements ?? 0;
  const pages = Math.max(rows.value?.totalPages ?? 1, 1);
  const headingId = `related-${source.path}-${related.field}`;
  return (
    <section className="related-list" aria-labelledby={headingId}>
      <div className="page-head">
        <h2 id={headingId}>{title}</h2>
        <div className="actions">
          <Link to={`/${source.path}?${allQuery(filterOf(related, value))}`}>
            {t('relatedAll', { resource: plural })}
            <span className="muted"> ({total})</span>
          </Link>
          {/* a list through a reference offers none: nothing on the source's form names this record (ADR 0141) */}
          {source.operations.create && !related.type && !related.through && access.can(`${source.path}:write`) ? (
            <Link className="button" to={`/${source.path}/new?${new URLSearchParams({ [related.field]: String(value) }).toString()}`}>
              {t('relatedNew', { resource: singularLabel(source, language) })}
            </Link>
          ) : null}
        </div>
      </div>
      <ErrorAlert error={rows.error} />
      <div className="table-scroll">
        <table className="cards">
          <caption className="visually-hidden">{t('records', { resource: title })}</caption>
          <thead>
            <tr>
              <th scope="col">{linkLabel}</th>
              {columns.map((each) => (
                <th key={each.name} scope="col">
                  {fieldLabel(each, language)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody aria-busy={rows.loading}>
            {content.map((row) => (
              <tr key={String(row[source.key])}>
                <td data-label={linkLabel}>
                  <Link to={recordPath(source, row)}>{String(row[linkField] ?? row[source.key])}</Link>
                </td>
                {columns.map((each) => (
                  <td key={each.name} data-label={fieldLabel(each, language)}>
                    <FieldValue field={each} value={row[each.name]} record={row} />
                  </td>
                ))}
              </tr>
            ))}
            {content.length === 0 ? (
              <tr>
                <td colSpan={columns.length + 1}>{rows.loading ? <Skeleton shape="rows" rows={2} /> : t('noRecords')}</td>
              </tr>
            ) : null}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav aria-label={t('pagination')} className="pagination">
          <button type="button" aria-disabled={page <= 0} onClick={() => page > 0 && setPage(page - 1)}>
            {t('previous')}
          </button>
          <span aria-live="polite">{t('pageOf', { page: page + 1, pages, total })}</span>
          <button type="button" aria-disabled={page + 1 >= pages} onClick={() => page + 1 < pages && setPage(page + 1)}>
            {t('next')}
          </button>
        </nav>
      ) : null}
    </section>
  );
}

/** The common fields every record has: the related list shows what tells the records apart. */
const COMMON = new Set(['id', 'version', 'crProcessId', 'status', 'createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/** The list's filter of the records naming `value` by the related field (and of the related type). */
function filterOf(related: ConsoleRelated, value: unknown): Record<string, unknown> {
  return related.type ? { [related.type.field]: related.type.value, [related.field]: value } : { [related.field]: value };
}

/** The full list's address so filtered, in the form the list page keeps its filters (Refine's syncWithLocation). */
function allQuery(filter: Record<string, unknown>): string {
  const query = new URLSearchParams();
  Object.entries(filter).forEach(([field, value], index) => {
    query.set(`filters[${index}][field]`, field);
    query.set(`filters[${index}][operator]`, 'eq');
    query.set(`filters[${index}][value]`, String(value));
  });
  return query.toString();
}
