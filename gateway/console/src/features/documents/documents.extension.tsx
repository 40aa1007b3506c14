/**
 * The documents feature as the shell sees it (extensions/types.ts): the Documents page (category
 * tree, files, uploads), a file's page, the audit log with its chain check, the dms-file list in
 * place of the generic one, a retention policy's dry run, and the share link's public page.
 */
import type { ConsoleExtension } from '../../extensions/types.ts';
import { SharePublicPage } from '../share-public/share-public.page.tsx';
import { AuditLogPage } from './audit-log.page.tsx';
import { documentsMessages } from './documents.messages.ts';
import { DocumentsPage } from './documents.page.tsx';
import { FilePage } from './file.page.tsx';
import { RetentionDryRunAction } from './retention-dry-run.action.tsx';

export const documentsExtension: ConsoleExtension = {
  pages: [
    {
      path: 'documents',
      element: <DocumentsPage />,
      menu: { label: (language) => documentsMessages[language].menuDocuments, group: 'documents', visible: (access) => access.can('dms-file:read') },
    },
    { path: 'documents/file/:id', element: <FilePage /> },
    {
      path: 'documents/audit',
      element: <AuditLogPage />,
      menu: { label: (language) => documentsMessages[language].menuAudit, group: 'documents', visible: (access) => access.can('dms-audit-log:read') },
    },
  ],
  publicPages: [{ path: 'share/:token', element: <SharePublicPage /> }],
  resources: {
    'dms-file': { list: DocumentsPage },
    'dms-audit-log': { list: AuditLogPage },
    'dms-retention-policy': { recordActions: RetentionDryRunAction },
  },
};
