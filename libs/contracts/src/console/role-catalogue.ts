/**
 * The roles a group can grant, each by a readable name (docs/adr/0124-roles-by-pointing-from-a-derived-catalogue.md):
 * derived from the console's manifest (every resource's CRUD set gives `<path>:read`, `:write`,
 * `:delete`, as the services' checks ask for them, docs/interface.md#identity) and the accrual's
 * moves as declared (../bpm/accrual-moves.ts). Nobody types a role code: a new resource's roles
 * follow from its declaration. It imports only that declaration, which imports nothing: the
 * console's bundle loads it.
 */
import { ACCRUAL_MOVES } from '../bpm/accrual-moves.ts';
import type { ConsoleResource } from './manifest.ts';

export type Language = 'en' | 'tr';

/** The CRUD actions, columns of the role grid, then the moves beyond them. */
export const CRUD_ACTIONS = ['read', 'write', 'delete'] as const;
export type CrudAction = (typeof CRUD_ACTIONS)[number];

export interface CatalogueRole {
  /** The role code the services check: `business-partner:read`. */
  code: string;
  resource: ConsoleResource;
  /** `read`, `write`, `delete`, or a move's name (`approve`). */
  action: string;
}

/** What each action reads as, after the resource's name: "Business partners — read", "İş ortakları — okuma". */
const ACTION_NAMES: Readonly<Record<Language, Readonly<Record<string, string>>>> = {
  en: { read: 'read', write: 'write', delete: 'delete', approve: 'approve', invoice: 'invoice', cancel: 'cancel' },
  tr: { read: 'okuma', write: 'yazma', delete: 'silme', approve: 'onaylama', invoice: 'faturalama', cancel: 'iptal' },
};

/** The resource's name in `language` as its label catalogue declares it (the plural), or undefined when it has none (test/role-catalogue.test.ts fails for one). */
export function declaredName(resource: Pick<ConsoleResource, 'labels'>, language: Language): string | undefined {
  return resource.labels.other[language] || undefined;
}

/** The resource's name in `language`: as declared, else its plural as the registry spells it. */
export function resourceName(resource: ConsoleResource, language: Language): string {
  return declaredName(resource, language) ?? resource.plural;
}

/** A move's name alone, capitalized: "Approve", "Onaylama". */
export function actionName(action: string, language: Language): string {
  const name = ACTION_NAMES[language][action] ?? action;
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}

/** "Business partners — read". */
export function roleName(role: Pick<CatalogueRole, 'resource' | 'action'>, language: Language): string {
  return `${resourceName(role.resource, language)} — ${ACTION_NAMES[language][role.action] ?? role.action}`;
}

/** Every role of the platform, by resource in the manifest's order: read, write, delete, then the resource's moves. */
export function roleCatalogue(resources: readonly ConsoleResource[]): CatalogueRole[] {
  const moves = Object.values(ACCRUAL_MOVES).map((move) => move.role as string);
  return resources.flatMap((resource) => {
    const { get, list, stats, create, update } = resource.operations;
    const offered: Record<CrudAction, boolean> = { read: get || list || stats, write: create || update, delete: resource.operations.delete };
    const crud = CRUD_ACTIONS.filter((action) => offered[action]).map((action) => ({ code: `${resource.path}:${action}`, resource, action }));
    const own = moves.filter((code) => code.startsWith(`${resource.path}:`)).map((code) => ({ code, resource, action: code.slice(resource.path.length + 1) }));
    return [...crud, ...own];
  });
}

/** The readable name of a role code: from the catalogue, else the tenant's own role name, else the code. */
export function nameOfCode(catalogue: readonly CatalogueRole[], code: string, language: Language, fallback?: string): string {
  const role = catalogue.find((each) => each.code === code);
  return role ? roleName(role, language) : (fallback ?? code);
}
