/**
 * Which columns a user chose for a resource's list, kept in the browser's localStorage under the
 * user and the resource (docs/adr/0118-a-list-declares-its-columns.md): another user of the same
 * browser sees the declared default columns, and the choice never reaches the server.
 */
import { useState } from 'react';
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { defaultColumns, listColumns } from './fields.ts';

/** The storage key of one user's columns of one resource. */
export const columnsKey = (userCode: string, path: string): string => `console.columns.${userCode}.${path}`;

function read(key: string): string[] | null {
  try {
    const stored: unknown = JSON.parse(globalThis.localStorage?.getItem(key) ?? 'null');
    return Array.isArray(stored) && stored.every((name) => typeof name === 'string') ? stored : null;
  } catch {
    return null;
  }
}

/**
 * The columns the list shows (the user's choice, else the declared default; a chosen field the
 * resource no longer has is left out) and a setter: field names, or null for the default again.
 */
export function useColumns(resource: ConsoleResource): [ConsoleField[], (names: readonly string[] | null) => void] {
  const key = columnsKey(useAccess().me.userCode, resource.path);
  const [state, setState] = useState(() => ({ key, names: read(key) }));
  const names = state.key === key ? state.names : read(key);
  const shown = names ? listColumns(resource).filter((field) => names.includes(field.name)) : [];
  const choose = (next: readonly string[] | null) => {
    if (next) globalThis.localStorage?.setItem(key, JSON.stringify(next));
    else globalThis.localStorage?.removeItem(key);
    setState({ key, names: next ? [...next] : null });
  };
  return [shown.length > 0 ? shown : defaultColumns(resource), choose];
}
