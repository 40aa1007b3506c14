/**
 * The CRUD routes' elements: each finds its resource in the manifest by the address
 * (`/:resource`, `/:resource/new`, `/:resource/:key`, `/:resource/:key/edit`), checks the role the
 * page needs, and renders the generic page, or an extension's list in its place. The record, create
 * and edit pages load when first opened (React.lazy): the first route carries only the list.
 */
import { lazy, Suspense, type ReactNode } from 'react';
import { useParams } from 'react-router';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { Skeleton } from '../ui/skeleton.tsx';
import { useResourceDef } from './manifest.tsx';
import { useResourceExtensions } from '../extensions/context.ts';
import { crudMessages } from './messages.ts';
import { ListPage } from './list-page.tsx';

const RecordPage = lazy(() => import('./record-page.tsx').then((module) => ({ default: module.RecordPage })));
const CreatePage = lazy(() => import('./create-page.tsx').then((module) => ({ default: module.CreatePage })));
const EditPage = lazy(() => import('./edit-page.tsx').then((module) => ({ default: module.EditPage })));

function Refusal({ message }: { message: string }) {
  return (
    <PageTitle title={message}>
      <span role="alert">{message}</span>
    </PageTitle>
  );
}

/** The resource of the address, when the user's roles allow `role` of it (`read`, `write`) and it offers `operation`. */
function Guarded({
  role,
  operation,
  children,
}: {
  role: string;
  operation: keyof ConsoleResource['operations'];
  children: (resource: ConsoleResource) => ReactNode;
}) {
  const t = useT(crudMessages);
  const access = useAccess();
  const resource = useResourceDef(useParams().resource);
  if (!resource || !resource.operations[operation]) return <Refusal message={t('notFound')} />;
  if (!access.can(`${resource.path}:${role}`)) return <Refusal message={t('notAllowed')} />;
  return <Suspense fallback={<Skeleton shape={operation === 'list' ? 'rows' : 'record'} />}>{children(resource)}</Suspense>;
}

/** `/:resource`: the list, or an extension's in its place. */
export function ListRoute() {
  const Replacement = useResourceExtensions(useParams().resource).find((part) => part.list !== undefined)?.list;
  return (
    <Guarded role="read" operation="list">
      {(resource) => (Replacement ? <Replacement resource={resource} /> : <ListPage key={resource.path} resource={resource} />)}
    </Guarded>
  );
}

/** `/:resource/:key`: a record's page. */
export function RecordRoute() {
  const key = useParams().key ?? '';
  return (
    <Guarded role="read" operation="get">
      {(resource) => <RecordPage key={`${resource.path}/${key}`} resource={resource} keyValue={key} />}
    </Guarded>
  );
}

/** `/:resource/new`: the create form. */
export function CreateRoute() {
  return (
    <Guarded role="write" operation="create">
      {(resource) => <CreatePage key={resource.path} resource={resource} />}
    </Guarded>
  );
}

/** `/:resource/:key/edit`: the edit form. */
export function EditRoute() {
  const key = useParams().key ?? '';
  return (
    <Guarded role="write" operation="update">
      {(resource) => <EditPage key={`${resource.path}/${key}`} resource={resource} keyValue={key} />}
    </Guarded>
  );
}
