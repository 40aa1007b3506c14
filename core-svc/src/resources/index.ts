import { account } from './account/account.resource.ts';
import { group } from './group/group.resource.ts';
import { groupMember } from './group-member/group-member.resource.ts';
import { groupRole } from './group-role/group-role.resource.ts';
import { roleType } from './role-type/role-type.resource.ts';
import { userInfo } from './user-info/user-info.resource.ts';
import { userProcess } from './user-process/user-process.resource.ts';

/** The core service's resources; a referenced resource comes before its referrers. */
export const coreResources = [account, userInfo, userProcess, group, groupMember, roleType, groupRole] as const;
