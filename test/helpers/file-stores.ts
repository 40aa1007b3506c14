/**
 * Which document tests run on both file stores (docs/adr/0144-files-on-s3-compatible-storage.md).
 * `npm test` runs the whole suite with dms-svc's files in its folder, then the files of
 * ON_BOTH_STORES again against a platform of their own whose dms-svc and dms-worker keep the files
 * in a bucket of OpenStack Swift on loopback (test/run.ts). Every test/dms-*.test.ts is named in
 * exactly one of the two lists (test/file-stores.test.ts holds them to it): a new file test says
 * whether its store matters.
 */
import { selectedOf } from './pass-files.ts';

/** The file tests whose bytes go through the store: uploads, downloads, ranges, shares, tus, retention, limits, audit, scans. */
export const ON_BOTH_STORES: readonly string[] = [
  'test/dms-audit.test.ts',
  'test/dms-file-audit.test.ts',
  'test/dms-file-legal-hold.test.ts',
  'test/dms-file-references.test.ts',
  'test/dms-file-serving.test.ts',
  'test/dms-file-tenant-limits.test.ts',
  'test/dms-file-text.test.ts',
  'test/dms-files-limit.test.ts',
  'test/dms-files.test.ts',
  'test/dms-relay.test.ts',
  'test/dms-retention.test.ts',
  'test/dms-share-lease.test.ts',
  'test/dms-share-link-deleted-file.test.ts',
  'test/dms-share-link.test.ts',
  'test/dms-share-password-change.test.ts',
  'test/dms-share-public.test.ts',
  'test/dms-storage-usage.test.ts',
  'test/dms-tus-edge.test.ts',
  'test/dms-tus-limits.test.ts',
  'test/dms-tus-replicas.test.ts',
  'test/dms-tus.test.ts',
  'test/dms-virus-scan.test.ts',
];

/** The document tests that run once, each with the reason its store does not matter or is fixed. */
export const ON_ONE_STORE: Readonly<Record<string, string>> = {
  'test/dms-file-modes.test.ts': "the folder's own modes (0600 files in a 0700 folder): a bucket has none",
  'test/dms-storage-sweep.test.ts': "what crashes leave in the folder; the bucket's sweep is walked by dms-files-s3",
  'test/dms-files-s3.test.ts': 'on a bucket of its own already',
  'test/dms-files-s3-outage.test.ts': 'on a failing bucket of its own already',
  'test/dms-file-port.test.ts': "the file port's credential and listeners, judged before any byte reaches the store",
  'test/dms-file-browser.test.ts': "the relay's headers judged by a browser; dms-file-serving reads the same bytes on both stores",
  'test/dms-settings.test.ts': 'categories and account settings: no file',
  'test/dms-share-password-body.test.ts': "validate-password's request bodies: no file is read",
  'test/dms-file-text-resume.test.ts':
    "a platform of its own on the folder: the run's lease when its worker dies, which dms-file-text's bucket pass does not change",
  'test/dms-category-read-role.test.ts': 'which files a caller may read: rows and roles, no byte is read',
  'test/dms-matching-rules.test.ts': 'rules judged in SQL on text rows its helper writes: no byte is read',
};

/**
 * Of a run's ava arguments, those of its pass on the bucket: the flags, and the files of
 * ON_BOTH_STORES the run selects (by path or glob, from `rootDir`), all of them when it selects none.
 * Empty when it selects files and none of them is one of ON_BOTH_STORES.
 */
export function bucketPassArgs(avaArgs: readonly string[], rootDir: string): string[] {
  return selectedOf(ON_BOTH_STORES, avaArgs, rootDir);
}
