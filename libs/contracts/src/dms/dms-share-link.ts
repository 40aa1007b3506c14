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
  menu: { area: 'documents' },
  grpc: DmsShareLinkServiceService,
  encoder: DmsShareLink,
  operations: 'full',
  fields: {
    fileId: { kind: 'long', required: true, min: 1, references: 'dms-file', doc: 'The shared file: a dms-file of the same tenant.' },
    expiresAt: { kind: 'datetime', doc: 'ISO 8601 UTC; the link answers 410 after it. Empty: never expires.' },
    // bcrypt reads at most 72 bytes; the column holds the 60-character hash
    password: {
      kind: 'string',
      writeOnly: true,
      minLength: 1,
      maxLength: 72,
      maxBytes: 72,
      doc: 'Write-only: stored as a bcrypt hash, never returned. Empty: no password.',
    },
    hasPassword: { kind: 'boolean', readOnly: true, default: false, doc: 'Read-only: whether the link has a password.' },
    maxDownloads: { kind: 'int', min: 1, doc: 'Downloads the link allows; at least 1. Empty: no limit.' },
    // the token opens the file to anyone who holds it: shown to the link's readers, never sent on in an event
    token: {
      kind: 'string',
      readOnly: true,
      maxLength: 64,
      unique: 'global',
      secret: true,
      doc: 'Read-only: 32 random bytes in base64url, generated on create, never changed.',
    },
    url: { kind: 'string', readOnly: true, maxLength: 128, secret: true, doc: 'Read-only: the public path, /api/dms-share-link/public/{token}.' },
    downloadCount: { kind: 'int', readOnly: true, default: 0, doc: 'Read-only: downloads so far.' },
  },
  form: {
    sections: [
      { title: { en: 'Link', tr: 'Bağlantı' }, fields: ['fileId', 'expiresAt', 'maxDownloads', 'status'] },
      { title: { en: 'Protection', tr: 'Koruma' }, fields: ['password', 'hasPassword'] },
      { title: { en: 'Use', tr: 'Kullanım' }, fields: ['downloadCount'] },
    ],
  },
  labels: {
    en: {
      one: 'Share link',
      other: 'Share links',
      fields: {
        fileId: 'File',
        expiresAt: 'Expires',
        password: 'Password',
        hasPassword: 'Password protected',
        maxDownloads: 'Download limit',
        token: 'Token',
        url: 'Link',
        downloadCount: 'Downloads',
      },
      help: {
        expiresAt: 'Left empty, the link never expires.',
        password: 'Left empty, anyone with the link may download.',
        maxDownloads: 'Left empty, no limit.',
      },
    },
    tr: {
      one: 'Paylaşım bağlantısı',
      other: 'Paylaşım bağlantıları',
      fields: {
        fileId: 'Dosya',
        expiresAt: 'Son geçerlilik',
        password: 'Parola',
        hasPassword: 'Parola korumalı',
        maxDownloads: 'İndirme sınırı',
        token: 'Belirteç',
        url: 'Bağlantı',
        downloadCount: 'İndirme sayısı',
      },
      help: {
        expiresAt: 'Boş bırakılırsa bağlantının süresi dolmaz.',
        password: 'Boş bırakılırsa bağlantıya sahip herkes indirebilir.',
        maxDownloads: 'Boş bırakılırsa sınır yoktur.',
      },
    },
  },
  list: {
    columns: ['fileId', 'expiresAt', 'maxDownloads', 'downloadCount', 'hasPassword', 'status'],
    filters: ['fileId', 'expiresAt'],
  },
});
