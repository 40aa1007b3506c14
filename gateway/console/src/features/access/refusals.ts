/**
 * Who may change whom (docs/adr/0005-users-who-are-not-super-users.md), as the record pages' reasons
 * for offering no edit or delete: only a super user changes a super user, or the tenant memberships
 * of a user who also works in another tenant. The services refuse these with 403 SVC-SYS-1003.
 */
import type { RecordData } from '../../extensions/types.ts';
import type { Access } from '../../shell/access.tsx';

const SUPER_USER = {
  en: 'Only a super user changes or deletes a super user.',
  tr: 'Süper kullanıcıyı yalnızca süper kullanıcı değiştirebilir veya silebilir.',
};

const SHARED = {
  en: 'Only a super user changes the memberships of a user who also works in another tenant.',
  tr: 'Başka bir kiracıda da çalışan bir kullanıcının üyeliklerini yalnızca süper kullanıcı değiştirebilir.',
};

/** A user-info that is a super user, for a console user who is not one. */
export function userRefusal(record: RecordData, access: Access) {
  return !access.me.superUser && record.superUser === true ? { update: SUPER_USER, delete: SUPER_USER } : undefined;
}

/** A user-process with a select for another tenant than the console user's current one. */
export function userProcessRefusal(record: RecordData, access: Access) {
  const selects = Array.isArray(record.userProcessSelects) ? (record.userProcessSelects as { crProcessId?: number }[]) : [];
  const shared = !access.me.superUser && selects.some((select) => select.crProcessId !== access.me.crProcessId);
  return shared ? { update: SHARED, delete: SHARED } : undefined;
}
