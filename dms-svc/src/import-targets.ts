import type { ImportTarget } from '@platform/service-kit/import/targets.ts';
import { dmsResources } from '@platform/contracts/dms/index.ts';
import { dmsCategoryHooks } from './resources/dms-category/dms-category.hooks.ts';

/**
 * The entities of dms-svc a file may be imported into, with the hooks their writes run (as
 * server.ts registers them). Not the files (made by uploads), the share links (passwords) nor the
 * audit log (written by the service alone).
 */
const NOT_IMPORTED = new Set(['dms-file', 'dms-share-link', 'dms-audit-log']);

export const importTargets: readonly ImportTarget[] = dmsResources
  .filter((resource) => !NOT_IMPORTED.has(resource.path))
  .map((resource) => ({ resource, hooks: resource.path === 'dms-category' ? dmsCategoryHooks : undefined }));
