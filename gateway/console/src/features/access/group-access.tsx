import type { RecordActionsProps } from '../../extensions/types.ts';
import { GroupMembers } from './group-members.tsx';
import { GroupRoles } from './group-roles.tsx';

/** A group's page: its members, then its roles. */
export function GroupAccess(props: RecordActionsProps) {
  return (
    <>
      <GroupMembers {...props} />
      <GroupRoles {...props} />
    </>
  );
}
