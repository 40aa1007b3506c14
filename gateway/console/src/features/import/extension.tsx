import { lazy } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { importMessages } from './messages.ts';

const ImportPage = lazy(() => import('./import-page.tsx').then((module) => ({ default: module.ImportPage })));

/** Importing a CSV or XLSX file into an entity (docs/interface.md#import): the mapping, the dry run, the progress and the error report. */
export const importExtension: ConsoleExtension = {
  pages: [{ path: 'import', element: <ImportPage />, menu: { label: { en: importMessages.en.menu, tr: importMessages.tr.menu }, area: 'administration' } }],
};
