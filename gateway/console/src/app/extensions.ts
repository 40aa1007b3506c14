import type { ConsoleExtension } from '../extensions/types.ts';
import { accessExtension } from '../features/access/extension.ts';
import { accessTokensExtension } from '../features/access-tokens/extension.tsx';
import { accrualsExtension } from '../features/accruals/extension.ts';
import { dashboardExtension } from '../features/dashboard/extension.tsx';
import { documentsExtension } from '../features/documents/documents.extension.tsx';
import { operationsExtension } from '../features/operations/extension.tsx';
import { sharePublicExtension } from '../features/share-public/share-public.extension.tsx';
import { webhooksExtension } from '../features/webhooks/extension.tsx';
import { secondFactorExtension } from '../features/second-factor/extension.tsx';
import { importExtension } from '../features/import/extension.tsx';

/**
 * Every feature beyond the CRUD set, listed once: the shell reads this list for its routes, menu and
 * public pages, and gives it to the generic pages through ExtensionsContext (extensions/context.ts).
 */
export const extensions: readonly ConsoleExtension[] = [
  dashboardExtension,
  documentsExtension,
  sharePublicExtension,
  accrualsExtension,
  webhooksExtension,
  operationsExtension,
  accessExtension,
  accessTokensExtension,
  secondFactorExtension,
  importExtension,
];
