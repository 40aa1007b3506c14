import type { Resource } from '@platform/kit/resource/resource.ts';
import { ACCESS_TOKEN_ROUTES } from './access-tokens.ts';
import { AUTH_ROUTES } from './auth.ts';
import { OIDC_ROUTES } from './oidc.ts';
import { BPM_ROUTES } from './bpm.ts';
import { crudRouteTable } from './crud.ts';
import { DMS_FILE_BYTE_ROUTES } from './dms-file-bytes.ts';
import { DMS_SHARE_PUBLIC_ROUTES } from './dms-share-public.ts';
import { DMS_ROUTES } from './dms.ts';
import { DOCS_ROUTES } from './docs.ts';
import { HEALTH_ROUTES } from './health.ts';
import { HISTORY_ROUTES } from './history.ts';
import { IMPORT_ROUTES, IMPORT_UPLOAD_ROUTES } from './import.ts';
import { routesOf, type RouteSpec } from './route.ts';
import { SEARCH_ROUTES } from './search.ts';
import { SECOND_FACTOR_ROUTES } from './second-factor.ts';
import { SESSION_ROUTES } from './sessions.ts';
import { TENANT_MEMBER_ROUTES } from './tenant-members.ts';
import { WEBHOOK_ROUTES } from './webhooks.ts';

/**
 * The route tables written in the gateway, not declared as operations (none is a plain RPC call):
 * file bytes and public share pages relayed as streams to dms-svc, an import's upload (multipart)
 * and its runs (whose entity names the service), health, and this document. In
 * the order app.ts registers their routers.
 */
export const HAND_WRITTEN_ROUTES = [DMS_FILE_BYTE_ROUTES, DMS_SHARE_PUBLIC_ROUTES, IMPORT_UPLOAD_ROUTES, HEALTH_ROUTES, DOCS_ROUTES, IMPORT_ROUTES] as const;

/**
 * The route tables of the declared operations (libs/contracts), registered after the hand-written
 * ones and before the CRUD sets, in this order: each is its declaration itself.
 */
export const OPERATION_ROUTES = [
  AUTH_ROUTES,
  SECOND_FACTOR_ROUTES,
  OIDC_ROUTES,
  SESSION_ROUTES,
  BPM_ROUTES,
  DMS_ROUTES,
  HISTORY_ROUTES,
  WEBHOOK_ROUTES,
  SEARCH_ROUTES,
  TENANT_MEMBER_ROUTES,
  ACCESS_TOKEN_ROUTES,
] as const;

/**
 * Every REST route of the gateway's public port: the hand-written tables, the declared operations,
 * then each resource's CRUD set as it offers it. The routers are built from the same tables, so a
 * route added to one is in this list (the fuzz test walks it).
 *
 * @example
 * gatewayRoutes(registry).length // 9 hand-written + 24 declared + every resource's set
 */
export function gatewayRoutes(resources: readonly Resource[]): RouteSpec[] {
  return routesOf(...HAND_WRITTEN_ROUTES, ...OPERATION_ROUTES, ...resources.map(crudRouteTable));
}
