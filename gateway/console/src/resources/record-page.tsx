import { useContext, useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useOne } from '@refinedev/core';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import './sections.css';
import { useRecordRefusal, useResourceExtensions } from '../extensions/context.ts';
import { crudMessages } from './messages.ts';
import { fieldLabel, singularLabel } from './labels.ts';
import { detailFields } from './fields.ts';
import { FieldValue } from './field-value.tsx';
import { DeleteButton } from './delete-button.tsx';
import { RecordHistory } from './history.tsx';
import { RelatedLists } from './related-lists.tsx';
import { recordPath } from './record-link.ts';
import { useLockReason } from './record-lock.tsx';
import { fieldGroups } from './sections.ts';
import { ResourceError } from './resource-error.tsx';
import { recordName } from './record-name.ts';

type Row = Record<string, unknown>;

/**
 * A record's page: its fields, edit and delete as the roles and the record's state allow (a state
 * that forbids them says so instead), the extensions' actions, the records that refer to it, its
 * history, read again after each action of theirs (a move writes an event). Its fields stand in the
 * resource's declared sections, the record's stamps last; a skeleton of them holds the place while
 * it loads.
 */
export function RecordPage({ resource, keyValue }: { resource: ConsoleResource; keyValue: string }) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const navigate = useNavigate();
  const { result: record, query } = useOne<Row>({ resource: resource.path, id: keyValue, queryOptions: { retry: false } });
  const name = record?.[resource.display];
  const title = `${singularLabel(resource, language)} ${name !== undefined && name !== null ? String(name) : keyValue}`;
  const parts = useResourceExtensions(resource.path);
  const actions = parts.flatMap((part) => part.recordActions ?? []);
  const recordSections = parts.flatMap((part) => part.recordSections ?? []);
  const [round, setRound] = useState(0);
  const sectionId = useId();
  const stateLock = useLockReason(resource, record ?? {});
  const refusal = useRecordRefusal(parts, record ?? {});
  const lockReason = (operation: 'update' | 'delete') => stateLock(operation) ?? refusal(operation);
  const mayUpdate = resource.operations.update && access.can(`${resource.path}:write`);
  const mayDelete = resource.operations.delete && access.can(`${resource.path}:delete`);
  const locks = [mayUpdate ? lockReason('update') : undefined, mayDelete ? lockReason('delete') : undefined].filter((reason) => reason !== undefined);
  return (
    <>
      <PageTitle title={title}>{title}</PageTitle>
      <p>
        <Link to={`/${resource.path}`}>{t('back')}</Link>
      </p>
      <ResourceError error={query.error} resource={resource} />
      {query.isLoading ? <Skeleton shape="record" sections={Math.max(1, resource.sections.length)} rows={3} /> : null}
      {record ? (
        <>
          <div className="actions record-actions">
            {mayUpdate && !lockReason('update') ? (
              <Link className="button primary" to={recordPath(resource, record, '/edit')}>
                {t('edit')}
              </Link>
            ) : null}
            {mayDelete && !lockReason('delete') ? (
              <DeleteButton resource={resource} keyValue={keyValue} name={recordName(resource, record)} onDeleted={() => navigate(`/${resource.path}`)} />
            ) : null}
            {actions.map((Actions, index) => (
              <Actions
                key={index}
                resource={resource}
                record={record}
                refresh={() => {
                  void query.refetch();
                  setRound((n) => n + 1);
                }}
              />
            ))}
          </div>
          {locks.map((reason) => (
            <p key={reason} className="record-lock-note">
              {reason}
            </p>
          ))}
          {fieldGroups(resource, detailFields(resource), language).map((group, index) => (
            <section key={group.title ?? `rest-${index}`} className="record-section" aria-labelledby={`${sectionId}-${index}`}>
              <h2 id={`${sectionId}-${index}`}>{group.title ?? t('recordDetails')}</h2>
              <dl className="record-fields">
                {group.fields.map((field) => (
                  <div key={field.name}>
                    <dt>{fieldLabel(field, language)}</dt>
                    <dd>
                      <FieldValue field={field} value={record[field.name]} record={record} />
                    </dd>
                  </div>
                ))}
              </dl>
            </section>
          ))}
          {recordSections.map((Section, index) => (
            <Section key={index} resource={resource} record={record} refresh={() => void query.refetch()} />
          ))}
          <RelatedLists resource={resource} record={record} />
          <RecordHistory resource={resource} keyValue={keyValue} round={round} version={record.version} />
        </>
      ) : null}
    </>
  );
}
