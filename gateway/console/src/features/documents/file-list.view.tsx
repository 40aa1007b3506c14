/**
 * The files of the selected category (POST /api/dms-file/list with filter.categoryId), a search box
 * (searchTerm: name, description, tags) and paging; each name links to the file's page.
 */
import { useContext, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { PageNav } from '../../ui/page-nav.tsx';
import { listFiles } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { fileLabel, formatBytes, formatInstant } from './format.ts';
import { useLoad } from '../../shell/use-load.ts';
import { useFieldLabels } from '../../resources/labels.ts';

export interface FileListProps {
  crProcessId: number;
  categoryId: number | undefined;
  heading: string;
  /** Changes when the files changed elsewhere (an upload finished): the list loads again. */
  round: number;
}

const SIZE = 20;

export function FileList({ crProcessId, categoryId, heading, round }: FileListProps) {
  const t = useT(documentsMessages);
  const language = useContext(LanguageContext);
  const label = useFieldLabels('dms-file');
  const [page, setPage] = useState(0);
  const [typed, setTyped] = useState('');
  const [searchTerm, setSearchTerm] = useState('');
  const [shownFor, setShownFor] = useState(categoryId);
  // another category starts at its first page
  if (shownFor !== categoryId) {
    setShownFor(categoryId);
    setPage(0);
  }

  const files = useLoad(
    (signal) => listFiles(crProcessId, { page, size: SIZE, searchTerm, filter: categoryId === undefined ? {} : { categoryId } }, signal),
    [crProcessId, categoryId, page, searchTerm, round],
  );

  const search = (event: FormEvent) => {
    event.preventDefault();
    setPage(0);
    setSearchTerm(typed.trim());
  };
  const answer = files.value;

  return (
    <section aria-labelledby="doc-files-heading" className="doc-files">
      <h2 id="doc-files-heading">{heading}</h2>
      <form role="search" onSubmit={search} className="doc-search">
        <label htmlFor="doc-search-term">{t('searchFiles')}</label>
        <input id="doc-search-term" type="search" value={typed} onChange={(event) => setTyped(event.target.value)} />
        <button type="submit">{t('search')}</button>
      </form>
      {files.error ? <p role="alert">{files.error}</p> : null}
      <table className="cards" aria-busy={files.loading}>
        <thead>
          <tr>
            <th scope="col">{t('name')}</th>
            <th scope="col">{label('fileSize')}</th>
            <th scope="col">{label('mimeType')}</th>
            <th scope="col">{label('uploadDate')}</th>
            <th scope="col">{label('legalHold')}</th>
          </tr>
        </thead>
        <tbody>
          {answer?.content.map((file) => (
            <tr key={file.id}>
              <td data-label={t('name')}>
                <Link to={`/documents/file/${file.id}`}>{fileLabel(file)}</Link>
              </td>
              <td data-label={label('fileSize')}>{file.fileSize === null ? '' : formatBytes(file.fileSize, language)}</td>
              <td data-label={label('mimeType')}>{file.mimeType ?? ''}</td>
              <td data-label={label('uploadDate')}>{formatInstant(file.uploadDate, language)}</td>
              <td data-label={label('legalHold')}>{file.legalHold ? t('yes') : t('no')}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {answer?.empty && !files.loading ? <p>{t('noFiles')}</p> : null}
      {answer && answer.totalPages > 1 ? (
        <PageNav page={answer.page} totalPages={answer.totalPages} totalElements={answer.totalElements} onPage={setPage} label={t('files')} />
      ) : null}
    </section>
  );
}
