/**
 * The extensions the shell runs with, for the generic pages that show a resource's parts of them
 * (record actions, a list in place of the generic one). The shell lists the features once
 * (app/extensions.ts) and provides that list here; the generic pages read it through this context,
 * so they import no feature and a feature may build on them (the file page shows a record's history).
 */
import { createContext, useContext } from 'react';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext } from '../shell/i18n.tsx';
import type { ConsoleExtension, RecordData, ResourceExtension } from './types.ts';

export const ExtensionsContext = createContext<readonly ConsoleExtension[] | null>(null);

/** Every extension's part for the resource at `path` (`accrual`, `dms-file`), in the list's order. */
export function useResourceExtensions(path: string | undefined): ResourceExtension[] {
  const extensions = useContext(ExtensionsContext);
  if (!extensions) throw new Error('useResourceExtensions outside the console shell');
  return path === undefined ? [] : extensions.flatMap((extension) => extension.resources?.[path] ?? []);
}

/** The extensions' reason, in the console's language, why the user may not `operation` the record (`recordRefusal`), or undefined. */
export function useRecordRefusal(parts: readonly ResourceExtension[], record: RecordData): (operation: 'update' | 'delete') => string | undefined {
  const access = useAccess();
  const language = useContext(LanguageContext);
  return (operation) => {
    for (const part of parts) {
      const reason = part.recordRefusal?.(record, access)?.[operation];
      if (reason) return reason[language];
    }
    return undefined;
  };
}
