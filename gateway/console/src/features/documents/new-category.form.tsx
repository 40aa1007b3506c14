/** Makes a category inside the selected one (or at the top level): dms-category:write. */
import { useState, type FormEvent } from 'react';
import { useT } from '../../shell/i18n.tsx';
import { createCategory, type DmsCategory } from './dms.api.ts';
import { documentsMessages } from './documents.messages.ts';

export interface NewCategoryFormProps {
  crProcessId: number;
  parent: DmsCategory | undefined;
  onCreated: (category: DmsCategory) => void;
}

export function NewCategoryForm({ crProcessId, parent, onCreated }: NewCategoryFormProps) {
  const t = useT(documentsMessages);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return;
    setBusy(true);
    try {
      const created = await createCategory(crProcessId, name.trim(), parent?.id);
      setName('');
      setError(undefined);
      onCreated(created);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="doc-new-category" onSubmit={(event) => void submit(event)} aria-label={t('newCategory')}>
      <label htmlFor="doc-new-category-name">{t('categoryName')}</label>
      <p className="doc-hint">{parent ? t('underCategory', { name: parent.categoryName }) : t('atTop')}</p>
      <input id="doc-new-category-name" value={name} onChange={(event) => setName(event.target.value)} required maxLength={255} />
      <button type="submit" disabled={busy}>
        {t('createCategory')}
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </form>
  );
}
