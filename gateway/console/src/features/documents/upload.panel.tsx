/**
 * Uploading on the documents page: files dropped anywhere on the page or chosen with the file
 * input, several at once, with the upload's form fields (docs/interface.md#files: categoryId, the
 * entity link entityType + entityId, description, tags) applied to each.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { useT } from '../../shell/i18n.tsx';
import type { DmsCategory } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';
import { UploadProgress } from './upload-progress.view.tsx';
import { useFieldLabels } from '../../resources/labels.ts';
import type { Uploads } from './use-uploads.ts';

export interface UploadPanelProps {
  crProcessId: number;
  /** Every category, named with its ancestors, for the category picker. */
  categories: readonly { category: DmsCategory; label: string }[];
  /** The selected category: the picker's default. */
  selected: number | undefined;
  uploads: Uploads;
}

export function UploadPanel({ crProcessId, categories, selected, uploads }: UploadPanelProps) {
  const t = useT(documentsMessages);
  const label = useFieldLabels('dms-file');
  const id = useId();
  const [categoryId, setCategoryId] = useState(selected === undefined ? '' : String(selected));
  const [entityType, setEntityType] = useState('');
  const [entityId, setEntityId] = useState('');
  const [description, setDescription] = useState('');
  const [tags, setTags] = useState('');
  const [dragging, setDragging] = useState(false);

  // the picker follows the tree's selection
  useEffect(() => setCategoryId(selected === undefined ? '' : String(selected)), [selected]);

  const fields = { crProcessId: String(crProcessId), categoryId, entityType: entityType.trim(), entityId: entityId.trim(), description, tags };
  const send = useRef((files: readonly File[]) => uploads.add(files, fields));
  useEffect(() => {
    send.current = (files) => uploads.add(files, fields);
  });

  // a drop anywhere on the page uploads; elsewhere the browser would open the file instead
  useEffect(() => {
    const hasFiles = (event: DragEvent) => event.dataTransfer?.types.includes('Files') ?? false;
    const over = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
      setDragging(true);
    };
    const leave = (event: DragEvent) => {
      if (event.relatedTarget === null) setDragging(false);
    };
    const drop = (event: DragEvent) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      setDragging(false);
      const files = [...(event.dataTransfer?.files ?? [])];
      if (files.length > 0) send.current(files);
    };
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <section aria-labelledby={`${id}-heading`} className={dragging ? 'doc-upload-panel doc-dragging' : 'doc-upload-panel'}>
      <h2 id={`${id}-heading`}>{t('uploadFiles')}</h2>
      <div className="doc-upload-fields">
        <label htmlFor={`${id}-category`}>{label('categoryId')}</label>
        <select id={`${id}-category`} value={categoryId} onChange={(event) => setCategoryId(event.target.value)}>
          <option value="">{t('noCategory')}</option>
          {categories.map(({ category, label }) => (
            <option key={category.id} value={category.id}>
              {label}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-description`}>{label('description')}</label>
        <input id={`${id}-description`} value={description} maxLength={1000} onChange={(event) => setDescription(event.target.value)} />
        <label htmlFor={`${id}-tags`}>{label('tags')}</label>
        <input id={`${id}-tags`} value={tags} maxLength={1000} onChange={(event) => setTags(event.target.value)} />
      </div>
      <details className="doc-entity-link">
        <summary>{t('linkToRecord')}</summary>
        <div className="doc-upload-fields">
          <label htmlFor={`${id}-entity-type`}>{label('entityType')}</label>
          <input id={`${id}-entity-type`} value={entityType} maxLength={64} onChange={(event) => setEntityType(event.target.value)} />
          <label htmlFor={`${id}-entity-id`}>{label('entityId')}</label>
          <input id={`${id}-entity-id`} value={entityId} inputMode="numeric" pattern="[0-9]*" onChange={(event) => setEntityId(event.target.value)} />
        </div>
      </details>
      <p className="doc-drop-hint">{t('dropHere')}</p>
      <label htmlFor={`${id}-files`}>{t('chooseFiles')}</label>
      <input
        id={`${id}-files`}
        className="doc-file-input"
        type="file"
        multiple
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          if (files.length > 0) send.current(files);
          event.target.value = '';
        }}
      />
      <UploadProgress uploads={uploads} />
    </section>
  );
}
