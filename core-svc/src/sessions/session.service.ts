import type { CoreConfig } from '../config.ts';
import { countSessionsByDay, getSessionStats } from './session-counts.ts';
import { createSession } from './session-create.ts';
import { listActiveSessions, pageActiveSessions, pageSessionHistory } from './session-lists.ts';
import { getSession, updateSession } from './session-record.ts';

/**
 * Sessions over the API key (docs/interface.md#sessions-and-logs), or from the console for a live
 * super user (authorizeOperator); RecordSessionsSeen and CheckSession, the gateway's own, need the
 * service's TokenService and are added beside these (server.ts).
 */
export function sessionHandlers(config: CoreConfig) {
  return {
    getSession,
    createSession: createSession(config),
    updateSession,
    listActiveSessions,
    pageActiveSessions,
    pageSessionHistory,
    countSessionsByDay,
    getSessionStats,
  };
}
