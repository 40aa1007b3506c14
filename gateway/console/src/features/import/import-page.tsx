import { useContext, useEffect, useState, type FormEvent } from 'react';
import { multipartBody } from '@platform/client/multipart.ts';
import type { ImportRun } from '@platform/client/schema.d.ts';
import { answer, platform } from '../../shell/api.ts';
import { useAccess } from '../../shell/access.tsx';
import { LanguageContext, useT } from '../../shell/i18n.tsx';
import { useManifest } from '../../resources/manifest.tsx';
import { importMessages } from './messages.ts';

/** An import run as the API document declares it. */
type Run = ImportRun;

const UNDER_WAY = new Set(['CHECKING', 'QUEUED', 'RUNNING']);

/**
 * POST /api/import/{entity} and what follows it (docs/interface.md#import): the file uploaded, its
 * columns mapped (the proposal changeable), the dry run, the import with a progress bar, its errors
 * and the error report.
 */
export function ImportPage() {
  const t = useT(importMessages);
  const language = useContext(LanguageContext);
  const { me, can } = useAccess();
  const targets = useManifest().resources.filter((resource) => resource.operations.create && can(`${resource.path}:write`));
  const [entity, setEntity] = useState(targets[0]?.path ?? '');
  const [file, setFile] = useState<File>();
  const [run, setRun] = useState<Run>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const resource = targets.find((candidate) => candidate.path === entity);
  const fields = (resource?.fields ?? []).filter((field) => !field.readOnly && field.name !== 'crProcessId');

  // a run under way is read again each second until it ends
  useEffect(() => {
    if (!run || !UNDER_WAY.has(run.status)) return undefined;
    const timer = setTimeout(() => {
      void answer(platform.GET('/api/import/{entity}/{id}', { params: { path: { entity, id: run.id } } }))
        .then((next) => setRun(next as Run))
        .catch((failure: unknown) => setError(String((failure as Error).message)));
    }, 1000);
    return () => clearTimeout(timer);
  }, [run, entity]);

  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      setRun((await work()) as Run);
    } catch (failure) {
      setError((failure as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const upload = (event: FormEvent) => {
    event.preventDefault();
    if (!file) return;
    void act(async () => {
      return answer(
        platform.POST('/api/import/{entity}', {
          params: { path: { entity } },
          body: { crProcessId: me.crProcessId, file },
          bodySerializer: (fields) => multipartBody(fields),
        }),
      );
    });
  };
  const step = (what: 'check' | 'start' | 'cancel') =>
    act(async () => {
      if (!run) return run;
      if (what !== 'cancel' && (run.status === 'PREVIEW' || run.status === 'CHECKED')) {
        await answer(
          platform.PUT('/api/import/{entity}/{id}', {
            params: { path: { entity, id: run.id } },
            body: { mapping: run.mapping, updateByCode: run.updateByCode },
          }),
        );
      }
      const path = `/api/import/{entity}/{id}/${what}` as const;
      return answer(platform.POST(path, { params: { path: { entity, id: run.id } } }));
    });
  const editable = run !== undefined && (run.status === 'PREVIEW' || run.status === 'CHECKED');

  if (targets.length === 0) return <p role="alert">{t('noWrite')}</p>;
  return (
    <section className="import-page">
      <h1 tabIndex={-1}>{t('title')}</h1>
      <p>{t('intro')}</p>
      <form onSubmit={upload}>
        <label>
          {t('entity')}{' '}
          <select value={entity} onChange={(event) => (setEntity(event.target.value), setRun(undefined))}>
            {targets.map((target) => (
              <option key={target.path} value={target.path}>
                {target.labels.other[language]}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          {t('file')} <input type="file" accept=".csv,.tsv,.txt,.xlsx" onChange={(event) => setFile(event.target.files?.[0])} />
        </label>{' '}
        <button type="submit" disabled={!file || busy}>
          {busy ? t('working') : t('upload')}
        </button>
      </form>
      {error && <p role="alert">{error}</p>}
      {run && (
        <>
          <p>{t('status', { status: run.status })}</p>
          {run.message && <p role="alert">{run.message}</p>}
          <table>
            <caption>{t('preview')}</caption>
            <thead>
              <tr>
                <th scope="col">{t('column')}</th>
                <th scope="col">{t('field')}</th>
                {run.preview.slice(0, 5).map((_, index) => (
                  <th key={index} scope="col">
                    {index + 2}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {run.header.map((column, index) => (
                <tr key={index}>
                  <th scope="row">{column}</th>
                  <td>
                    <select
                      aria-label={`${t('field')}: ${column}`}
                      disabled={!editable}
                      value={run.mapping[index] ?? ''}
                      onChange={(event) => setRun({ ...run, mapping: run.mapping.map((field, at) => (at === index ? event.target.value || null : field)) })}
                    >
                      <option value="">{t('notImported')}</option>
                      {fields.map((field) => (
                        <option key={field.name} value={field.name}>
                          {field.label[language]}
                        </option>
                      ))}
                    </select>
                  </td>
                  {run.preview.slice(0, 5).map((row, at) => (
                    <td key={at}>{row[index] ?? ''}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
          <label>
            <input
              type="checkbox"
              disabled={!editable}
              checked={run.updateByCode}
              onChange={(event) => setRun({ ...run, updateByCode: event.target.checked })}
            />{' '}
            {t('updateByCode')}
          </label>
          <p>
            <button type="button" disabled={!editable || busy} onClick={() => void step('check')}>
              {t('check')}
            </button>{' '}
            <button type="button" disabled={!editable || busy} onClick={() => void step('start')}>
              {t('start')}
            </button>{' '}
            <button type="button" disabled={busy || !(editable || UNDER_WAY.has(run.status))} onClick={() => void step('cancel')}>
              {t('cancel')}
            </button>
          </p>
          <label>
            {t('progress')} <progress max={Math.max(1, run.totalRows)} value={run.processed} />
          </label>
          <p>
            {t('counts', {
              processed: run.processed,
              total: run.totalRows,
              created: run.created,
              updated: run.updated,
              unchanged: run.unchanged,
              failed: run.failed,
            })}
          </p>
          {run.errors.length > 0 && (
            <>
              <table>
                <caption>{t('errors')}</caption>
                <thead>
                  <tr>
                    <th scope="col">{t('row')}</th>
                    <th scope="col">{t('column')}</th>
                    <th scope="col">{t('message')}</th>
                  </tr>
                </thead>
                <tbody>
                  {run.errors.map((rowError, index) => (
                    <tr key={index}>
                      <td>{rowError.row}</td>
                      <td>{rowError.column ?? ''}</td>
                      <td>{rowError.message}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
              <p>
                <a href={`/api/import/${encodeURIComponent(entity)}/${run.id}/errors`} download>
                  {t('report')}
                </a>
              </p>
            </>
          )}
        </>
      )}
    </section>
  );
}
