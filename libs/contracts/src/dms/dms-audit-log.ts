import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsAuditLogServiceService, DmsAuditLog } from '@platform/kit/gen/platform/dms/v1/dms_audit_log.ts';

/** The audited actions (docs/interface.md#retention-and-audit). */
export const AUDIT_ACTIONS = [
  'UPLOAD',
  'UPLOAD_REFUSED',
  'UPDATE',
  'MOVE',
  'DELETE',
  'DOWNLOAD',
  'SHARE_CREATE',
  'SHARE_UPDATE',
  'SHARE_DELETE',
  'SHARE_ACCESS',
  'PASSWORD_OK',
  'PASSWORD_FAIL',
  'RETENTION_SOFT_DELETE',
  'RETENTION_PURGE',
  'PURGE',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One action on documents, read-only (docs/interface.md#records, docs/interface.md#files): appended by the action's own
 * transaction (dms-svc/src/audit/append-audit.ts), in the record's tenant, never updated or deleted (the
 * API offers get and list only; a trigger refuses UPDATE and DELETE). Each tenant's rows form a
 * hash chain in id order: `hash` = SHA-256 over `previousHash` and the row's canonical content
 * (dms-svc/src/audit/audit-hash.ts), checked by VerifyDmsAuditLogs. fileId and shareLinkId outlive what they
 * name, so neither is a foreign key; each row going out names its file (`fileName`, read with the
 * page's rows in one query: dms-svc/src/audit/audit-log.hooks.ts), so a reader needs no second request.
 */
export const dmsAuditLog = defineResource<DmsAuditLog>()({
  path: 'dms-audit-log',
  name: 'DmsAuditLog',
  plural: 'DmsAuditLogs',
  service: 'dms',
  menu: null,
  grpc: DmsAuditLogServiceService,
  encoder: DmsAuditLog,
  operations: 'read-only',
  appendOnly: true,
  fields: {
    action: {
      kind: 'enum',
      required: true,
      values: AUDIT_ACTIONS,
      doc: 'UPLOAD, UPLOAD_REFUSED, UPDATE, MOVE, DELETE, DOWNLOAD, SHARE_CREATE, SHARE_UPDATE, SHARE_DELETE, SHARE_ACCESS, PASSWORD_OK, PASSWORD_FAIL, RETENTION_SOFT_DELETE, RETENTION_PURGE or PURGE.',
    },
    fileId: {
      kind: 'long',
      notReference: 'an audit row outlives the file it names: a purge deletes the file and is audited',
      doc: 'The file acted on, if any.',
    },
    shareLinkId: {
      kind: 'long',
      notReference: 'an audit row outlives the share link it names: SHARE_DELETE and a purge delete the link',
      doc: 'The share link acted on, if any.',
    },
    userCode: { kind: 'string', required: true, maxLength: 64, doc: 'Who acted (a userCode, or svc:<service> for the platform itself).' },
    ipAddress: { kind: 'string', maxLength: 64, doc: 'Client address, where known.' },
    userAgent: { kind: 'string', maxLength: 1000, doc: 'Client User-Agent, where known.' },
    details: { kind: 'text', doc: 'What changed, as JSON text.' },
    previousHash: {
      kind: 'string',
      required: true,
      maxLength: 64,
      readOnly: true,
      doc: "Hex SHA-256 of the tenant's previous audit row (64 zeros for its first).",
    },
    hash: { kind: 'string', required: true, maxLength: 64, readOnly: true, doc: "Hex SHA-256 over previous_hash and this row's canonical content." },
    fileName: {
      kind: 'string',
      readOnly: true,
      computed: true,
      doc: "The original file name of fileId, while its record is kept (a deleted file's too, not a purged one's); read-only, computed on every read, outside the hash.",
    },
  },
  labels: {
    en: {
      one: 'Audit log entry',
      other: 'Audit log entries',
      fields: {
        action: 'Action',
        fileId: 'File',
        shareLinkId: 'Share link',
        userCode: 'User',
        ipAddress: 'IP address',
        userAgent: 'Browser',
        details: 'Details',
        previousHash: 'Previous hash',
        hash: 'Hash',
        fileName: 'File name',
      },
      values: {
        action: {
          UPLOAD: 'Upload',
          UPLOAD_REFUSED: 'Upload refused',
          UPDATE: 'Update',
          MOVE: 'Move',
          DELETE: 'Delete',
          DOWNLOAD: 'Download',
          SHARE_CREATE: 'Share link created',
          SHARE_UPDATE: 'Share link changed',
          SHARE_DELETE: 'Share link deleted',
          SHARE_ACCESS: 'Download by share link',
          PASSWORD_OK: 'Share password accepted',
          PASSWORD_FAIL: 'Share password refused',
          RETENTION_SOFT_DELETE: 'Deleted by retention',
          RETENTION_PURGE: 'Purged by retention',
          PURGE: 'Purged',
        },
      },
      help: { userCode: 'Who acted: a user, or svc:<service> for the platform itself.' },
    },
    tr: {
      one: 'Denetim kaydı',
      other: 'Denetim kayıtları',
      fields: {
        action: 'İşlem',
        fileId: 'Dosya',
        shareLinkId: 'Paylaşım bağlantısı',
        userCode: 'Kullanıcı',
        ipAddress: 'IP adresi',
        userAgent: 'Tarayıcı',
        details: 'Ayrıntılar',
        previousHash: 'Önceki özet',
        hash: 'Özet',
        fileName: 'Dosya adı',
      },
      values: {
        action: {
          UPLOAD: 'Yükleme',
          UPLOAD_REFUSED: 'Yükleme reddedildi',
          UPDATE: 'Güncelleme',
          MOVE: 'Taşıma',
          DELETE: 'Silme',
          DOWNLOAD: 'İndirme',
          SHARE_CREATE: 'Paylaşım bağlantısı oluşturuldu',
          SHARE_UPDATE: 'Paylaşım bağlantısı değiştirildi',
          SHARE_DELETE: 'Paylaşım bağlantısı silindi',
          SHARE_ACCESS: 'Paylaşım bağlantısıyla indirme',
          PASSWORD_OK: 'Paylaşım parolası kabul edildi',
          PASSWORD_FAIL: 'Paylaşım parolası reddedildi',
          RETENTION_SOFT_DELETE: 'Saklama kuralıyla silindi',
          RETENTION_PURGE: 'Saklama kuralıyla kalıcı silindi',
          PURGE: 'Kalıcı silindi',
        },
      },
      help: { userCode: 'İşlemi yapan: bir kullanıcı ya da platformun kendisi için svc:<servis>.' },
    },
  },
  list: {
    columns: ['createdAt', 'action', 'fileName', 'userCode', 'ipAddress'],
    filters: ['action', 'fileId', 'userCode', 'createdAt'],
  },
});
