/**
 * The document search (menu "Search documents", `documents/search`): words and filters (category,
 * type, upload days, uploader) sent to GET /api/dms-file/search, and the files it finds, best first,
 * each with its name linking to its page, its category, its upload date and the passages of its text
 * that match, the words found marked (snippet.ts). The search lives in the address (`?q=&category=
 * &type=&from=&to=&by=`), so Back returns to the results and a search can be linked to.
 */
import { useContext, useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useLoad } from '../../shell/use-load.ts';
import { DateInput } from '../../ui/date-input.tsx';
import { PageTitle } from '../../ui/page-title.tsx';
import { pathName } from './category-tree.ts';
import { allCategories, searchFiles, type DmsFile, type FileSearch } from './dms.api.ts';
import { fileLabel, formatInstant } from './format.ts';
import { Snippet } from './snippet.view.tsx';
import { useTenantId } from './tenant.ts';
import { textMessages } from './text.messages.ts';
import './documents.css';

/** The types offered by the type filter: those whose words are read (dms-svc/src/text/), and PDF first. */
const TYPES = [
  ['application/pdf', 'typePdf'],
  ['image/png', 'typePng'],
  ['image/jpeg', 'typeJpeg'],
  ['image/tiff', 'typeTiff'],
  ['text/plain', 'typeText'],
  ['text/csv', 'typeCsv'],
] as const;

/** The most files the service answers (GET /api/dms-file/search: "at most 500"). */
const MOST = 500;

/** The form's fields, as the address holds them: `from` and `to` are days (`YYYY-MM-DD`), both included. */
interface Fields {
  q: string;
  category: string;
  type: string;
  from: string;
  to: string;
  by: string;
}

const NAMES = ['q', 'category', 'type', 'from', 'to', 'by'] as const;
const EMPTY: Fields = { q: '', category: '', type: '', from: '', to: '', by: '' };

function fieldsOf(params: URLSearchParams): Fields {
  return Object.fromEntries(NAMES.map((name) => [name, params.get(name) ?? ''])) as unknown as Fields;
}

/** The start of a local day as an instant; `after` days later (the end of an included last day is the next day's start). */
function dayStart(day: string, after = 0): string {
  const [year, month, date] = day.split('-').map(Number);
  return new Date(year!, month! - 1, date! + after).toISOString();
}

/** The service's query for the fields: empty ones left out, the days as instants in the user's time zone. */
function searchOf(fields: Fields): FileSearch {
  return {
    ...(fields.q.trim() ? { searchTerm: fields.q.trim() } : {}),
    ...(fields.category ? { categoryId: Number(fields.category) } : {}),
    ...(fields.type ? { mimeType: fields.type } : {}),
    ...(fields.from ? { uploadedFrom: dayStart(fields.from) } : {}),
    ...(fields.to ? { uploadedTo: dayStart(fields.to, 1) } : {}),
    ...(fields.by.trim() ? { createdBy: fields.by.trim() } : {}),
  };
}

export function DocumentSearchPage() {
  const t = useT(textMessages);
  const access = useAccess();
  const crProcessId = useTenantId();
  const [params, setParams] = useSearchParams();
  const searched = params.has('q');
  const asked = useMemo(() => fieldsOf(params), [params]);
  const [fields, setFields] = useState<Fields>(asked);
  // another address (Back, a link) shows its own search in the form
  const [shownFor, setShownFor] = useState(params.toString());
  if (shownFor !== params.toString()) {
    setShownFor(params.toString());
    setFields(asked);
  }

  const mayReadCategories = access.can('dms-category:read');
  const categories = useLoad((signal) => (mayReadCategories ? allCategories(crProcessId, signal) : Promise.resolve([])), [crProcessId, mayReadCategories]);
  const categoryNames = useMemo(() => {
    const byId = new Map((categories.value ?? []).map((category) => [category.id, category]));
    return new Map((categories.value ?? []).map((category) => [category.id, pathName(category, byId)]));
  }, [categories.value]);
  const categoryOptions = useMemo(() => [...categoryNames].sort((a, b) => a[1].localeCompare(b[1])), [categoryNames]);

  const query = params.toString();
  const found = useLoad((signal) => (searched ? searchFiles(crProcessId, searchOf(asked), signal) : Promise.resolve(undefined)), [crProcessId, query]);

  const set = (name: keyof Fields) => (value: string) => setFields((now) => ({ ...now, [name]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    for (const name of NAMES) if (name === 'q' || fields[name].trim()) next.set(name, fields[name].trim());
    // the same search again asks again (a file uploaded since)
    if (next.toString() === query) found.reload();
    else setParams(next);
  };
  const clear = () => {
    setFields(EMPTY);
    setParams(new URLSearchParams());
  };

  return (
    <div className="doc-page">
      <PageTitle title={t('searchTitle')}>{t('searchTitle')}</PageTitle>
      <p className="doc-hint">{t('searchIntro')}</p>
      <form role="search" aria-label={t('searchTitle')} className="doc-text-search" onSubmit={submit}>
        <div className="doc-text-search-words">
          <label htmlFor="doc-text-q">{t('words')}</label>
          <div className="doc-text-search-row">
            <input id="doc-text-q" type="search" value={fields.q} onChange={(event) => set('q')(event.target.value)} aria-describedby="doc-text-q-hint" />
            <button type="submit" className="primary">
              {t('search')}
            </button>
          </div>
          <p id="doc-text-q-hint" className="doc-hint">
            {t('wordsHint')}
          </p>
        </div>
        <fieldset className="doc-text-filters">
          <legend>{t('filters')}</legend>
          {mayReadCategories ? (
            <div>
              <label htmlFor="doc-text-category">{t('category')}</label>
              <select id="doc-text-category" value={fields.category} onChange={(event) => set('category')(event.target.value)}>
                <option value="">{t('anyCategory')}</option>
                {categoryOptions.map(([id, name]) => (
                  <option key={id} value={id}>
                    {name}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <div>
            <label htmlFor="doc-text-type">{t('type')}</label>
            <select id="doc-text-type" value={fields.type} onChange={(event) => set('type')(event.target.value)}>
              <option value="">{t('anyType')}</option>
              {TYPES.map(([type, label]) => (
                <option key={type} value={type}>
                  {t(label)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor="doc-text-from">{t('uploadedFrom')}</label>
            <DateInput id="doc-text-from" value={fields.from} onChange={set('from')} />
          </div>
          <div>
            <label htmlFor="doc-text-to">{t('uploadedTo')}</label>
            <DateInput id="doc-text-to" value={fields.to} onChange={set('to')} />
          </div>
          <div>
            <label htmlFor="doc-text-by">{t('uploader')}</label>
            <input id="doc-text-by" type="text" autoComplete="off" value={fields.by} onChange={(event) => set('by')(event.target.value)} />
          </div>
          <div className="doc-text-filter-buttons">
            <button type="button" onClick={clear}>
              {t('clear')}
            </button>
          </div>
        </fieldset>
      </form>
      <section aria-labelledby="doc-text-results" className="doc-files" aria-busy={searched && found.loading}>
        <h2 id="doc-text-results">{t('results')}</h2>
        <p role="status" className="doc-text-summary">
          {summary(t, searched, found.loading, found.error, found.value, asked)}
        </p>
        {searched && found.error ? (
          <p role="alert" className="error-alert">
            {t('failed', { message: found.error })}
          </p>
        ) : null}
        {searched && !found.error && found.value && found.value.length > 0 ? <Hits files={found.value} categoryNames={categoryNames} /> : null}
      </section>
    </div>
  );
}

/** What the status line says: nothing asked yet, searching, how many were found, or that none was. */
function summary(
  t: ReturnType<typeof useT<keyof (typeof textMessages)['en']>>,
  searched: boolean,
  loading: boolean,
  error: string | undefined,
  files: DmsFile[] | undefined,
  asked: Fields,
): string {
  if (!searched) return t('before');
  if (loading) return t('searching');
  if (error || !files) return '';
  if (files.length === 0) return asked.q.trim() ? t('noneFor', { q: asked.q.trim() }) : t('none');
  if (files.length >= MOST) return t('foundMax', { count: files.length });
  return files.length === 1 ? t('foundOne') : t('found', { count: files.length });
}

function Hits({ files, categoryNames }: { files: DmsFile[]; categoryNames: ReadonlyMap<number, string> }) {
  const t = useT(textMessages);
  const language = useContext(LanguageContext);
  return (
    <ol className="doc-hits">
      {files.map((file) => (
        <li key={file.id} className="doc-hit">
          <h3>
            <Link to={`/documents/file/${file.id}`}>{fileLabel(file)}</Link>
          </h3>
          <dl className="doc-hit-facts">
            <div>
              <dt>{t('category')}</dt>
              <dd>{file.categoryId == null ? t('noCategory') : (categoryNames.get(file.categoryId) ?? `#${file.categoryId}`)}</dd>
            </div>
            <div>
              <dt>{t('uploaded')}</dt>
              <dd>{formatInstant(file.uploadDate, language)}</dd>
            </div>
            {file.mimeType ? (
              <div>
                <dt>{t('type')}</dt>
                <dd>{file.mimeType}</dd>
              </div>
            ) : null}
          </dl>
          {file.searchSnippet ? (
            <p className="doc-snippet">
              <span className="visually-hidden">{t('foundIn')}: </span>
              <Snippet html={file.searchSnippet} />
            </p>
          ) : null}
        </li>
      ))}
    </ol>
  );
}
