/**
 * The documents feature as the shell sees it (extensions/types.ts): the Documents page (category
 * tree, files, uploads), the search of the files' words, a file's page (with its text), the audit
 * log with its chain check, the dms-file list in place of the generic one, and a retention policy's
 * dry run (the share link's public page is its own feature: share-public). Each page is loaded when
 * first shown, so the console's first route does not carry them.
 */
import { lazy, Suspense, type ComponentType, type ReactElement } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { useT } from '../../shell/i18n.tsx';
import { documentsMessages } from './documents.messages.ts';
import { textMessages } from './text.messages.ts';

function Loading() {
  const t = useT(documentsMessages);
  return <p aria-busy="true">{t('loading')}</p>;
}

/** A component of a module loaded on first use, behind its own Suspense (the shell may give none). */
function later<P extends object>(load: () => Promise<ComponentType<P>>): (props: P) => ReactElement {
  const Lazy = lazy(async () => ({ default: await load() }));
  return function Later(props: P) {
    return (
      <Suspense fallback={<Loading />}>
        <Lazy {...props} />
      </Suspense>
    );
  };
}

const DocumentsPage = later(async () => (await import('./documents.page.tsx')).DocumentsPage);
const FilePage = later(async () => (await import('./file.page.tsx')).FilePage);
const DocumentSearchPage = later(async () => (await import('./document-search.page.tsx')).DocumentSearchPage);
const AuditLogPage = later(async () => (await import('./audit-log.page.tsx')).AuditLogPage);
const RetentionDryRunAction = later(async () => (await import('./retention-dry-run.action.tsx')).RetentionDryRunAction);

export const documentsExtension: ConsoleExtension = {
  pages: [
    {
      path: 'documents',
      element: <DocumentsPage />,
      menu: {
        label: { en: documentsMessages.en.menuDocuments, tr: documentsMessages.tr.menuDocuments },
        area: 'documents',
        visible: (access) => access.can('dms-file:read'),
      },
    },
    {
      path: 'documents/search',
      element: <DocumentSearchPage />,
      menu: {
        label: { en: textMessages.en.menuSearch, tr: textMessages.tr.menuSearch },
        area: 'documents',
        visible: (access) => access.can('dms-file:read'),
      },
    },
    { path: 'documents/file/:id', element: <FilePage /> },
    {
      path: 'documents/audit',
      element: <AuditLogPage />,
      menu: {
        label: { en: documentsMessages.en.menuAudit, tr: documentsMessages.tr.menuAudit },
        area: 'documents',
        visible: (access) => access.can('dms-audit-log:read'),
      },
    },
  ],
  resources: {
    'dms-file': { list: DocumentsPage },
    'dms-audit-log': { list: AuditLogPage },
    'dms-retention-policy': { recordActions: RetentionDryRunAction },
  },
};
