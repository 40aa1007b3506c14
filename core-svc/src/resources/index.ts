import { account } from './account/account.resource.ts';
import { userInfo } from './user-info/user-info.resource.ts';
import { userProcess } from './user-process/user-process.resource.ts';

/** The core service's resources; a referenced resource comes before its referrers. */
export const coreResources = [account, userInfo, userProcess] as const;
