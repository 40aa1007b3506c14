import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsShareLinkServiceService, DmsShareLink } from '@platform/kit/gen/platform/dms/v1/dms_share_link.ts';

/**
 * A public link to one file (docs/interface.md#records, docs/interface.md#files). The token (32 random bytes, base64url, unique
 * across tenants: the public paths find a link by it alone) and its url are made on create and
 * never change; the password is stored as a bcrypt hash and never returned (hasPassword tells).
 * Every create, update and delete appends a dms-audit-log row in its transaction
 * (dms-svc/src/resources/dms-share-link/dms-share-link.hooks.ts). fileId names a dms-file of the same tenant (a foreign key), live when
 * the link is made or moved to it (live-file.ts beside them); files are only soft-deleted, so a link may come to
 * name a deleted file, which the public paths answer 410.
 */
export const dmsShareLink = defineResource<DmsShareLink>()({
  path: 'dms-share-link',
  name: 'DmsShareLink',
  plural: 'DmsShareLinks',
  service: 'dms',
  grpc: DmsShareLinkServiceService,
  encoder: DmsShareLink,
  operations: 'full',
  fields: {
    fileId: { kind: 'long', required: true, min: 1, references: 'dms-file' },
    expiresAt: { kind: 'datetime' },
    // bcrypt reads at most 72 bytes; the column holds the 60-character hash
    password: { kind: 'string', writeOnly: true, minLength: 1, maxLength: 72, maxBytes: 72 },
    hasPassword: { kind: 'boolean', readOnly: true, default: false },
    maxDownloads: { kind: 'int', min: 1 },
    // the token opens the file to anyone who holds it: shown to the link's readers, never sent on in an event
    token: { kind: 'string', readOnly: true, maxLength: 64, unique: 'global', secret: true },
    url: { kind: 'string', readOnly: true, maxLength: 128, secret: true },
    downloadCount: { kind: 'int', readOnly: true, default: 0 },
  },
});
