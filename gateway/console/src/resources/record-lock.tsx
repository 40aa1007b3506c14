import { useContext } from 'react';
import type { ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { lockOf, type LockedOperation } from '@platform/contracts/record-locks.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel, valueLabel } from './labels.ts';

/**
 * Why the record's own state forbids an operation (libs/contracts/src/record-locks.ts, the rule the
 * service guards by), in the user's words, or undefined when it does not: the page then offers no
 * button the service would refuse, and shows this instead.
 */
export function useLockReason(resource: ConsoleResource, record: Readonly<Record<string, unknown>>): (operation: LockedOperation) => string | undefined {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  return (operation) => {
    const lock = lockOf(resource.path, operation, record);
    if (!lock) return undefined;
    const spec = resource.fields.find((candidate) => candidate.name === lock.field);
    const field = fieldLabel(spec ?? { name: lock.field }, language);
    const value = typeof lock.value === 'boolean' ? t(lock.value ? 'yes' : 'no') : spec ? valueLabel(spec, String(lock.value), language) : String(lock.value);
    return t(operation === 'update' ? 'lockedUpdate' : 'lockedDelete', { field, value });
  };
}
