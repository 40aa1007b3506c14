import { account } from './account/account.resource.ts';
import { city } from './city/city.resource.ts';
import { corporationContact } from './corporation-contact/corporation-contact.resource.ts';
import { country } from './country/country.resource.ts';
import { currency } from './currency/currency.resource.ts';
import { group } from './group/group.resource.ts';
import { groupMember } from './group-member/group-member.resource.ts';
import { groupRole } from './group-role/group-role.resource.ts';
import { license } from './license/license.resource.ts';
import { licenseHistory } from './license-history/license-history.resource.ts';
import { roleType } from './role-type/role-type.resource.ts';
import { userInfo } from './user-info/user-info.resource.ts';
import { userProcess } from './user-process/user-process.resource.ts';

/** The core service's resources; a referenced resource comes before its referrers. */
export const coreResources = [
  account,
  userInfo,
  userProcess,
  group,
  groupMember,
  roleType,
  groupRole,
  license,
  licenseHistory,
  country,
  city,
  currency,
  corporationContact,
] as const;
