import type { Session } from '@platform/client/schema.d.ts';
import type { Language } from '../../shell/language.ts';
import { formatInstant } from './format.ts';
import type { operationsMessages } from './messages.ts';
import type { OperatorColumn } from './operator-table.tsx';

type Translate = (key: keyof (typeof operationsMessages)['en']) => string;

/**
 * The columns the active sessions and the session history share: who, where, and when the session
 * began and was last seen. Each page adds its own last columns (when it ends; the end action).
 */
export function sessionColumns(t: Translate, language: Language): OperatorColumn<Session>[] {
  return [
    { header: t('user'), cell: (session) => session.userCode, names: true },
    { header: t('account'), cell: (session) => session.accountNo },
    { header: t('tenant'), cell: (session) => session.crProcessId },
    { header: t('ipAddress'), cell: (session) => session.ipAddress ?? '' },
    { header: t('loginAt'), cell: (session) => formatInstant(session.loginAt, language) },
    { header: t('lastSeenAt'), cell: (session) => formatInstant(session.lastSeenAt, language) },
  ];
}
