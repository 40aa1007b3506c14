import { dmsFile } from './dms-file/dms-file.resource.ts';

/** The document service's resources; a referenced resource comes before its referrers. */
export const dmsResources = [dmsFile] as const;
