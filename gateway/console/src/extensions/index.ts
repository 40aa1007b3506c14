import type { ConsoleExtension } from './types.ts';
import { accrualsExtension } from '../features/accruals/extension.ts';
import { dashboardExtension } from '../features/dashboard/extension.tsx';
import { documentsExtension } from '../features/documents/documents.extension.tsx';
import { operationsExtension } from '../features/operations/extension.tsx';
import { webhooksExtension } from '../features/webhooks/extension.tsx';

/** Every feature beyond the CRUD set; the shell reads this list. */
export const extensions: readonly ConsoleExtension[] = [dashboardExtension, documentsExtension, accrualsExtension, webhooksExtension, operationsExtension];
