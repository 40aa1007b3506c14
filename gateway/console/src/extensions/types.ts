/**
 * How the console's features beyond the CRUD set plug into its shell: the shell renders every
 * resource of the manifest generically, and these add pages, record actions and public pages.
 * The shell lists them once (app/extensions.ts) and reads that list and nothing else of a feature;
 * the generic pages reach it through ExtensionsContext (context.ts). This folder imports no feature.
 */
import type { ComponentType, ReactNode } from 'react';
import type { ConsoleArea, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import type { Access } from '../shell/access.tsx';

export type RecordData = Record<string, unknown>;

export interface RecordActionsProps {
  resource: ConsoleResource;
  record: RecordData;
  /** Reloads the record (after a move changed it). */
  refresh: () => void;
}

export interface ExtensionPage {
  /** Path under /console/ without a leading slash: `dashboard`, `documents`, `documents/:id`. */
  path: string;
  element: ReactNode;
  /** A menu entry in `area`, shown when `visible` (default: always), labelled in each language. */
  menu?: { label: { en: string; tr: string }; area: ConsoleArea; visible?: (access: Access) => boolean };
  /** The page shown after login (the address `/`): the dashboard. */
  home?: true;
}

export interface ResourceExtension {
  /** Buttons shown on a record's page and row besides edit and delete (accrual approve, rotate a secret). */
  recordActions?: ComponentType<RecordActionsProps>;
  /**
   * Why the console's user may not update or delete this record although its roles grant the
   * operation (a rule of the service about who may change whom), in both languages; the record page
   * then offers no button for it and says this instead.
   */
  recordRefusal?: (record: RecordData, access: Access) => Partial<Record<'update' | 'delete', { en: string; tr: string }>> | undefined;
  /** Sections shown on a record's page below its fields (a user's access, a group's members and roles). */
  recordSections?: ComponentType<RecordActionsProps>;
  /** Replaces the generic list page of the resource (documents with their category tree). */
  list?: ComponentType<{ resource: ConsoleResource }>;
}

export interface ConsoleExtension {
  pages?: readonly ExtensionPage[];
  /** Pages outside the login (a share link's recipient), path under /console/. */
  publicPages?: readonly { path: string; element: ReactNode }[];
  /** By resource path (`accrual`, `dms-file`). */
  resources?: Readonly<Record<string, ResourceExtension>>;
}
