import { useContext, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useOne, useUpdate } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { answer, ApiError, platform } from '../shell/api.ts';
import type { Row } from '../shell/console-paths.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { notify } from '../ui/toasts.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel, singularLabel } from './labels.ts';
import { formFields } from './fields.ts';
import { RecordForm } from './record-form.tsx';
import { ConflictDialog } from './conflict-dialog.tsx';
import { differingFields, toFormValues, toRequestBody, type FormValues } from './form-values.ts';
import { recordPath } from './record-link.ts';
import { recordName } from './record-name.ts';
import { useLeaveGuard } from './leave-guard.tsx';
import { ResourceError } from './resource-error.tsx';

/**
 * An update of any resource (`PUT /api/{path}/{key}` with its `version` and `If-Match`). When the
 * record changed meanwhile, the conflict dialog offers to reload it: the form then holds the
 * current record with this user's edits re-applied, and names the fields others changed. A save
 * says so in the message region; leaving with unsaved changes asks first (leave-guard.tsx); the
 * form's sections wait as a skeleton while the record loads.
 */
export function EditPage({ resource, keyValue }: { resource: ConsoleResource; keyValue: string }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const navigate = useNavigate();
  const { result: loaded, query } = useOne<Row>({ resource: resource.path, id: keyValue, queryOptions: { staleTime: 0, retry: false } });
  const [base, setBase] = useState<Row | undefined>(undefined);
  const [values, setValues] = useState<FormValues>({});
  const [conflict, setConflict] = useState<unknown>(null);
  const [changed, setChanged] = useState<string[] | undefined>(undefined);
  const [reloading, setReloading] = useState(false);
  const [reloadError, setReloadError] = useState<unknown>(null);
  const { mutate: update, mutation } = useUpdate<Row>();
  const guard = useLeaveGuard(base !== undefined && !mutation.isSuccess && differingFields(toFormValues(resource, base), values).length > 0);

  useEffect(() => {
    if (loaded && !base) {
      setBase(loaded);
      setValues(toFormValues(resource, loaded));
    }
  }, [loaded, base, resource]);

  const title = t('editTitle', { resource: singularLabel(resource, language), key: keyValue });

  async function reload() {
    if (!base) return;
    setReloading(true);
    setReloadError(null);
    try {
      const current = await answer(platform.GET('/api/{resource}/{key}', { params: { path: { resource: resource.path, key: keyValue } } }));
      const mine = differingFields(toFormValues(resource, base), values);
      const fresh = toFormValues(resource, current);
      const theirs = differingFields(toFormValues(resource, base), fresh).filter((name) => !formFields(resource).find((f) => f.name === name)?.writeOnly);
      setBase(current);
      setValues({ ...fresh, ...Object.fromEntries(mine.map((name) => [name, values[name] ?? ''])) });
      setChanged(theirs);
      setConflict(null);
      mutation.reset();
    } catch (error) {
      setReloadError(error);
    } finally {
      setReloading(false);
    }
  }

  function save() {
    if (!base) return;
    update(
      { resource: resource.path, id: keyValue, values: { ...toRequestBody(resource, values, 'edit'), version: base.version } },
      {
        onSuccess: ({ data }) => {
          guard.release();
          notify(t('saved', { resource: singularLabel(resource, language), name: recordName(resource, data) }));
          void navigate(recordPath(resource, data));
        },
        onError: (error) => {
          if (error instanceof ApiError && error.isConflict) setConflict(error);
        },
      },
    );
  }

  const labels = (changed ?? []).map((name) => fieldLabel(formFields(resource).find((field) => field.name === name) ?? { name }, language));
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <ResourceError error={query.error} resource={resource} />
      {!base && query.isLoading ? <Skeleton shape="form" sections={Math.max(1, resource.sections.length)} rows={3} /> : null}
      {changed ? (
        <p className="notice" role="status">
          {t('reloaded')} {labels.length > 0 ? t('changedFields', { fields: labels.join(', ') }) : t('nothingChanged')}
        </p>
      ) : null}
      {base ? (
        <RecordForm
          resource={resource}
          mode="edit"
          values={values}
          onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
          crProcessId={Number(base.crProcessId)}
          changed={changed}
          busy={mutation.isPending}
          error={mutation.error && !(mutation.error instanceof ApiError && mutation.error.isConflict) ? mutation.error : undefined}
          onSubmit={save}
        />
      ) : null}
      <ConflictDialog resource={resource} error={conflict} busy={reloading} onReload={() => void reload()} onCancel={() => setConflict(null)} />
      <ResourceError error={reloadError} resource={resource} />
      {guard.dialog}
    </>
  );
}
