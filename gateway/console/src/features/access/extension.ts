import type { ConsoleExtension } from '../../extensions/types.ts';
import { GroupAccess } from './group-access.tsx';
import { userProcessRefusal, userRefusal } from './refusals.ts';
import { UserAccess } from './user-access.tsx';
import './access.css';

/**
 * Roles by pointing: a user's tenants and groups on its page, a group's members and roles on the
 * group's; no edit or delete of a user or membership the service keeps for super users.
 */
export const accessExtension: ConsoleExtension = {
  resources: {
    'user-info': { recordSections: UserAccess, recordRefusal: userRefusal },
    'user-process': { recordRefusal: userProcessRefusal },
    group: { recordSections: GroupAccess },
  },
};
