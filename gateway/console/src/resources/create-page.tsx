import { useContext, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useCreate } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { notify } from '../ui/toasts.tsx';
import { crudMessages } from './messages.ts';
import { singularLabel } from './labels.ts';
import { RecordForm } from './record-form.tsx';
import { differingFields, prefilledValues, toFormValues, toRequestBody, type FormValues } from './form-values.ts';
import { useTenant } from './use-tenant.ts';
import { recordPath } from './record-link.ts';
import { recordName } from './record-name.ts';
import { useLeaveGuard } from './leave-guard.tsx';

/**
 * A new record of any resource (`POST /api/{path}`), in the current tenant or a super user's choice;
 * then its page, with a message that it was created. Fields named in the address start filled
 * (`/branch/new?businessPartnerId=7`: a related list's "new" button). Leaving it with something
 * typed asks first (leave-guard.tsx).
 */
export function CreatePage({ resource }: { resource: ConsoleResource }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const navigate = useNavigate();
  const [tenant, setTenant, superUser] = useTenant();
  const [params] = useSearchParams();
  const [initial] = useState<FormValues>(() => ({ ...toFormValues(resource), ...prefilledValues(resource, params) }));
  const [values, setValues] = useState<FormValues>(initial);
  const { mutate, mutation } = useCreate<Record<string, unknown>>();
  const guard = useLeaveGuard(differingFields(initial, values).length > 0 && !mutation.isSuccess);
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
        error={mutation.error}
        onSubmit={() =>
          mutate(
            { resource: resource.path, values: { ...toRequestBody(resource, values, 'create'), crProcessId: tenant } },
            {
              onSuccess: ({ data }) => {
                guard.release();
                notify(t('created', { resource: singularLabel(resource, language), name: recordName(resource, data) }));
                void navigate(recordPath(resource, data));
              },
            },
          )
        }
      />
      {guard.dialog}
    </>
  );
}
