/**
 * The bound of a bulk change (`POST /api/{entity}/bulk`, docs/interface.md#bulk-changes): at most this
 * many items in one request; more is 400 SVC-SYS-2001 before any item runs. The gateway checks it, the
 * console sends a selection in requests of at most this many. It imports nothing: the console's
 * bundle loads it.
 */
export const MAX_BULK_ITEMS = 100;

/** The actions of a bulk item, each the single route it stands for: POST /{entity}, PUT and DELETE /{entity}/{key}. */
export const BULK_ACTIONS = ['create', 'update', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];
