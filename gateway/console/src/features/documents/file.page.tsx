/**
 * A file's page (`documents/file/:id`): its metadata, an inline preview, the actions the roles
 * allow (download, move, legal hold, delete), its text (whether it was read, and what), its share
 * links and its history.
 */
import { useContext, useMemo, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { allCategories, getFile, type DmsFile } from './dms.api.ts';
import { pathName } from './category-tree.ts';
import { documentsMessages } from './documents.messages.ts';
import { FileActions } from './file-actions.view.tsx';
import { useResourceDef } from '../../resources/manifest.tsx';
import { RecordHistory } from '../../resources/history.tsx';
import { useFieldLabels } from '../../resources/labels.ts';
import { FilePreview } from './file-preview.view.tsx';
import { FileTextPanel } from './file-text.view.tsx';
import { fileLabel, formatBytes, formatInstant } from './format.ts';
import { ShareLinks } from './share-links.view.tsx';
import { useTenantId } from './tenant.ts';
import { useLoad } from '../../shell/use-load.ts';
import './documents.css';
import { FactList } from './fact-list.view.tsx';

export function FilePage() {
  const t = useT(documentsMessages);
  const id = Number(useParams().id);
  const access = useAccess();
  const fileResource = useResourceDef('dms-file');
  const crProcessId = useTenantId();
  const navigate = useNavigate();
  const loaded = useLoad((signal) => getFile(id, signal), [id]);
  const [changed, setChanged] = useState<DmsFile>();
  const [round, setRound] = useState(0);
  const mayReadCategories = access.can('dms-category:read');
  const categories = useLoad((signal) => (mayReadCategories ? allCategories(crProcessId, signal) : Promise.resolve([])), [crProcessId, mayReadCategories]);
  const labels = useMemo(() => {
    const byId = new Map((categories.value ?? []).map((category) => [category.id, category]));
    return (categories.value ?? []).map((category) => ({ id: category.id, label: pathName(category, byId) })).sort((a, b) => a.label.localeCompare(b.label));
  }, [categories.value]);

  const file = changed?.id === id ? changed : loaded.value;
  if (loaded.error) return <p role="alert">{loaded.error}</p>;
  // the details name the file's category: shown once the categories are in, not as `#id` first
  if (!file || (categories.loading && !categories.value)) return <p aria-busy="true">{t('loading')}</p>;

  return (
    <div className="doc-page">
      <p>
        <Link to="/documents">{t('documents')}</Link>
      </p>
      <h1 tabIndex={-1}>{fileLabel(file)}</h1>
      <div className="doc-file-layout">
        <div>
          <FileDetails file={file} category={labels.find((category) => category.id === file.categoryId)?.label} />
          <FileActions
            file={file}
            categories={labels}
            onChanged={(next) => {
              setChanged(next);
              setRound((n) => n + 1);
            }}
            onDeleted={() => void navigate('/documents')}
          />
        </div>
        <FilePreview file={file} />
      </div>
      <FileTextPanel fileId={file.id} fileName={fileLabel(file)} />
      {access.can('dms-share-link:read') ? <ShareLinks crProcessId={crProcessId} fileId={file.id} /> : null}
      {fileResource ? <RecordHistory resource={fileResource} keyValue={String(file.id)} round={round} version={file.version} /> : null}
    </div>
  );
}

function FileDetails({ file, category }: { file: DmsFile; category: string | undefined }) {
  const t = useT(documentsMessages);
  const language = useContext(LanguageContext);
  const label = useFieldLabels('dms-file');
  const rows: [string, string][] = [
    [label('id'), String(file.id)],
    [label('fileSize'), file.fileSize === null ? '' : `${formatBytes(file.fileSize, language)} (${file.fileSize.toLocaleString(language)} B)`],
    [label('mimeType'), file.mimeType ?? ''],
    [label('categoryId'), category ?? (file.categoryId == null ? t('noCategory') : `#${file.categoryId}`)],
    [label('uploadDate'), formatInstant(file.uploadDate, language)],
    [label('createdBy'), file.createdBy ?? ''],
    [label('legalHold'), file.legalHold ? t('yes') : t('no')],
    [label('description'), file.description ?? ''],
    [label('tags'), file.tags ?? ''],
    [label('entityType'), file.entityType ?? ''],
    [label('entityId'), file.entityId == null ? '' : String(file.entityId)],
    [label('integrationKey'), file.integrationKey ?? ''],
    [label('checksum'), file.checksum ?? ''],
    [label('version'), String(file.version)],
    [label('updatedAt'), formatInstant(file.updatedAt, language)],
  ];
  return (
    <section aria-labelledby="doc-details-heading">
      <h2 id="doc-details-heading">{t('details')}</h2>
      <FactList facts={rows} />
    </section>
  );
}
