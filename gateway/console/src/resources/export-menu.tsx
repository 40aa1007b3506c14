import { useRef, useState } from 'react';
import type { CrudFilter, CrudSort } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { errorOf, platform } from '../shell/api.ts';
import { defineMessages, useT } from '../shell/i18n.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { pageFilter } from './data-provider.ts';

/** The words of a list's export menu. */
export const exportMessages = defineMessages({
  en: {
    export: 'Export',
    exportSelected: 'Export {count} selected',
    csv: 'CSV',
    xlsx: 'Excel (XLSX)',
    exporting: 'Exporting…',
  },
  tr: {
    export: 'Dışa aktar',
    exportSelected: 'Seçili {count} kaydı dışa aktar',
    csv: 'CSV',
    xlsx: 'Excel (XLSX)',
    exporting: 'Dışa aktarılıyor…',
  },
});

type Format = 'csv' | 'xlsx';

/** The file name the answer's Content-Disposition gives, else one of the path and the format. */
function fileNameOf(response: Response, resource: string, format: Format): string {
  const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '');
  return named?.[1] ?? `${resource}.${format}`;
}

/** Hands a file to the browser as a download. */
function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = name;
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
  // the browser has taken the file once the click is handled
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/**
 * A list's export (POST /api/{path}/export, docs/interface.md#export): the list as it is filtered and
 * sorted, every field, in the console's language, as CSV or XLSX; `ids` (the rows selected) narrows
 * it to those records. The file comes through the typed client (session cookie, CSRF header, Accept-Language) as
 * a blob and is handed to the browser as a download; a refusal is shown as the platform's message.
 */
export function ExportMenu({
  resource,
  filters,
  sorters,
  ids,
}: {
  resource: ConsoleResource;
  filters: readonly CrudFilter[];
  sorters: readonly CrudSort[];
  ids?: readonly (string | number)[];
}) {
  const t = useT(exportMessages);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const menu = useRef<HTMLDetailsElement>(null);
  // with rows selected, the selection only (in the list's order)
  const title = ids && ids.length > 0 ? t('exportSelected', { count: ids.length }) : t('export');
  const run = async (format: Format) => {
    if (menu.current) menu.current.open = false;
    setBusy(true);
    setError(null);
    try {
      const { searchTerm, filter } = pageFilter(filters, [...resource.fields, ...resource.through]);
      const {
        data,
        error: refusal,
        response,
      } = await platform.POST('/api/{resource}/export', {
        params: { path: { resource: resource.path }, query: { format } },
        body: {
          searchTerm,
          filter,
          sorts: sorters.map((sort) => ({ field: sort.field, direction: sort.order === 'desc' ? ('DESC' as const) : ('ASC' as const) })),
          ...(ids && ids.length > 0 ? { ids: [...ids] } : {}),
        },
        parseAs: 'blob',
      });
      if (!response.ok || !data) throw errorOf(response, refusal);
      download(data as unknown as Blob, fileNameOf(response, resource.path, format));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="export-menu">
      <details ref={menu}>
        <summary aria-busy={busy}>{busy ? t('exporting') : title}</summary>
        <div className="export-options" role="group" aria-label={title}>
          <button type="button" disabled={busy} onClick={() => void run('csv')}>
            {t('csv')}
          </button>
          <button type="button" disabled={busy} onClick={() => void run('xlsx')}>
            {t('xlsx')}
          </button>
        </div>
      </details>
      <ErrorAlert error={error} />
    </div>
  );
}
