import { useContext, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useCreate } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { crudMessages } from './messages.ts';
import { singularLabel } from './labels.ts';
import { RecordForm } from './record-form.tsx';
import { prefilledValues, toFormValues, toRequestBody, type FormValues } from './form-values.ts';
import { useTenant } from './use-tenant.ts';
import { recordPath } from './record-link.ts';

/**
 * A new record of any resource (`POST /api/{path}`), in the current tenant or a super user's choice;
 * then its page. Fields named in the address start filled (`/branch/new?businessPartnerId=7`: a
 * related list's "new" button).
 */
export function CreatePage({ resource }: { resource: ConsoleResource }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const navigate = useNavigate();
  const [tenant, setTenant, superUser] = useTenant();
  const [params] = useSearchParams();
  const [values, setValues] = useState<FormValues>(() => ({ ...toFormValues(resource), ...prefilledValues(resource, params) }));
  const { mutate, mutation } = useCreate<Record<string, unknown>>();
  const title = t('createTitle', { resource: singularLabel(resource, language) });
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <RecordForm
        resource={resource}
        mode="create"
        values={values}
        onChange={(name, value) => setValues((previous) => ({ ...previous, [name]: value }))}
        crProcessId={tenant}
        onTenant={superUser ? setTenant : undefined}
        busy={mutation.isPending}
        onSubmit={() =>
          mutate(
            { resource: resource.path, values: { ...toRequestBody(resource, values, 'create'), crProcessId: tenant } },
            { onSuccess: ({ data }) => navigate(recordPath(resource, data)) },
          )
        }
      >
        <ErrorAlert error={mutation.error} />
      </RecordForm>
    </>
  );
}
