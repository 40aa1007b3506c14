/**
 * The documents page (menu "Documents", and the dms-file list in place of the generic one): the
 * category tree on the side, the selected category's files, a new category, and uploads dropped
 * on the page or chosen. What the roles do not grant is not offered.
 */
import { useCallback, useMemo, useState } from 'react';
import { useAccess } from '../../shell/access.tsx';
import { useT } from '../../shell/i18n.tsx';
import { allCategories } from './dms.api.ts';
import { buildTree, pathName } from './category-tree.ts';
import { CategoryTree } from './category-tree.view.tsx';
import { documentsMessages } from './documents.messages.ts';
import { FileList } from './file-list.view.tsx';
import { NewCategoryForm } from './new-category.form.tsx';
import { UploadPanel } from './upload.panel.tsx';
import { useTenantId } from './tenant.ts';
import { useLoad } from '../../shell/use-load.ts';
import { useUploads } from './use-uploads.ts';
import './documents.css';

export function DocumentsPage() {
  const t = useT(documentsMessages);
  const access = useAccess();
  const crProcessId = useTenantId();
  const [selected, setSelected] = useState<number>();
  const [round, setRound] = useState(0);
  const mayReadCategories = access.can('dms-category:read');

  const categories = useLoad((signal) => (mayReadCategories ? allCategories(crProcessId, signal) : Promise.resolve([])), [crProcessId, mayReadCategories]);
  const byId = useMemo(() => new Map((categories.value ?? []).map((category) => [category.id, category])), [categories.value]);
  const roots = useMemo(() => buildTree(categories.value ?? []), [categories.value]);
  const picker = useMemo(
    () => (categories.value ?? []).map((category) => ({ category, label: pathName(category, byId) })).sort((a, b) => a.label.localeCompare(b.label)),
    [categories.value, byId],
  );
  const uploads = useUploads(useCallback(() => setRound((n) => n + 1), []));
  const selectedCategory = selected === undefined ? undefined : byId.get(selected);

  return (
    <div className="doc-page">
      <h1 tabIndex={-1}>{t('documents')}</h1>
      <div className="doc-layout">
        {mayReadCategories ? (
          <nav aria-label={t('categories')} className="doc-sidebar">
            <h2>{t('categories')}</h2>
            {categories.error ? <p role="alert">{categories.error}</p> : null}
            <CategoryTree roots={roots} selected={selected} onSelect={setSelected} />
            {access.can('dms-category:write') ? (
              <NewCategoryForm
                crProcessId={crProcessId}
                parent={selectedCategory}
                onCreated={(created) => {
                  categories.reload();
                  setSelected(created.id);
                }}
              />
            ) : null}
          </nav>
        ) : null}
        <div className="doc-main">
          {access.can('dms-file:write') ? <UploadPanel crProcessId={crProcessId} categories={picker} selected={selected} uploads={uploads} /> : null}
          {access.can('dms-file:read') ? (
            <FileList
              crProcessId={crProcessId}
              categoryId={selected}
              heading={selectedCategory ? t('filesIn', { name: selectedCategory.categoryName }) : t('allFiles')}
              round={round}
            />
          ) : (
            <p>{t('notAllowed')}</p>
          )}
        </div>
      </div>
    </div>
  );
}
