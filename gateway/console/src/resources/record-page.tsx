import { useContext } from 'react';
import { Link, useNavigate } from 'react-router';
import { useOne } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { useResourceExtensions } from '../extensions/context.ts';
import { crudMessages } from './messages.ts';
import { fieldLabel, singularLabel } from './labels.ts';
import { detailFields } from './fields.ts';
import { FieldValue } from './field-value.tsx';
import { DeleteButton } from './delete-button.tsx';
import { RecordHistory } from './history.tsx';
import { RelatedLists } from './related-lists.tsx';
import { recordPath } from './record-link.ts';

type Row = Record<string, unknown>;

/** A record's page: its fields, edit and delete as the roles allow, the extensions' actions, the records that refer to it, its history. */
export function RecordPage({ resource, keyValue }: { resource: ConsoleResource; keyValue: string }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const navigate = useNavigate();
  const { result: record, query } = useOne<Row>({ resource: resource.path, id: keyValue, queryOptions: { retry: false } });
  const name = record?.[resource.display];
  const title = `${singularLabel(resource)} ${name !== undefined && name !== null ? String(name) : keyValue}`;
  const actions = useResourceExtensions(resource.path).flatMap((part) => part.recordActions ?? []);
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <p>
        <Link to={`/${resource.path}`}>{t('back')}</Link>
      </p>
      <ErrorAlert error={query.error} />
      {record ? (
        <>
          <div className="actions record-actions">
            {resource.operations.update && access.can(`${resource.path}:write`) ? (
              <Link className="button primary" to={recordPath(resource, record, '/edit')}>
                {t('edit')}
              </Link>
            ) : null}
            {resource.operations.delete && access.can(`${resource.path}:delete`) ? (
              <DeleteButton resource={resource} keyValue={keyValue} onDeleted={() => navigate(`/${resource.path}`)} />
            ) : null}
            {actions.map((Actions, index) => (
              <Actions key={index} resource={resource} record={record} refresh={() => void query.refetch()} />
            ))}
          </div>
          <dl className="record-fields">
            {detailFields(resource).map((field) => (
              <div key={field.name}>
                <dt>{fieldLabel(field, language)}</dt>
                <dd>
                  <FieldValue field={field} value={record[field.name]} />
                </dd>
              </div>
            ))}
          </dl>
          <RelatedLists resource={resource} record={record} />
          <RecordHistory resource={resource} keyValue={keyValue} />
        </>
      ) : null}
    </>
  );
}
