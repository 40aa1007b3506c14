import type { ConsoleExtension } from '../../extensions/types.ts';
import { GroupAccess } from './group-access.tsx';
import { UserAccess } from './user-access.tsx';
import './access.css';

/** Roles by pointing: a user's tenants and groups on its page, a group's members and roles on the group's. */
export const accessExtension: ConsoleExtension = {
  resources: {
    'user-info': { recordSections: UserAccess },
    group: { recordSections: GroupAccess },
  },
};
