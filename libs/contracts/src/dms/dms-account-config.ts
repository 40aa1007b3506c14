import { defineResource } from '@platform/kit/resource/resource.ts';
import { DmsAccountConfigServiceService, DmsAccountConfig } from '@platform/kit/gen/platform/dms/v1/dms_account_config.ts';

/**
 * A tenant's document settings (docs/interface.md#records, docs/interface.md#files): one per tenant, kept by a unique key on
 * crProcessId alone, so a second is 409 SVC-SYS-4005 however the two creates interleave.
 */
export const dmsAccountConfig = defineResource<DmsAccountConfig>()({
  path: 'dms-account-config',
  name: 'DmsAccountConfig',
  plural: 'DmsAccountConfigs',
  service: 'dms',
  menu: { area: 'documents' },
  grpc: DmsAccountConfigServiceService,
  encoder: DmsAccountConfig,
  operations: 'full',
  fields: {
    crProcessId: { kind: 'long', required: true, immutable: true, unique: 'global', doc: 'Tenant.' },
    maxFileSize: { kind: 'long', min: 1, doc: 'Largest file the tenant may upload, in bytes; at least 1.' },
    allowedMimeTypes: { kind: 'string', maxLength: 2000, doc: 'Comma-separated MIME types an upload may have; empty: any.' },
    storageQuotaBytes: { kind: 'long', min: 0, doc: "Most bytes the tenant's files may take; at least 0." },
    purgeAfterDays: { kind: 'int', min: 0, doc: 'Soft-deleted files are purged after this many days; at least 0.' },
    textLanguage: {
      kind: 'enum',
      values: ['english', 'turkish'],
      doc: "The language of the tenant's files whose text is too short to tell theirs (english or turkish); unset: DMS_TEXT_LANGUAGE.",
    },
  },
  form: {
    sections: [
      { title: { en: 'Uploads', tr: 'Yüklemeler' }, fields: ['maxFileSize', 'allowedMimeTypes', 'status'] },
      { title: { en: 'Storage', tr: 'Depolama' }, fields: ['storageQuotaBytes', 'purgeAfterDays'] },
      { title: { en: 'Text', tr: 'Metin' }, fields: ['textLanguage'] },
    ],
  },
  labels: {
    en: {
      one: 'Document settings',
      other: 'Document settings',
      fields: {
        maxFileSize: 'Largest file (bytes)',
        allowedMimeTypes: 'Allowed file types',
        storageQuotaBytes: 'Storage quota (bytes)',
        purgeAfterDays: 'Purge deleted files after (days)',
        textLanguage: 'Language of the text',
      },
      help: {
        allowedMimeTypes: 'MIME types separated by commas; left empty, any type.',
        textLanguage: "The language a file's words are indexed in when its text is too short to tell.",
      },
      values: { textLanguage: { english: 'English', turkish: 'Turkish' } },
    },
    tr: {
      one: 'Belge ayarları',
      other: 'Belge ayarları',
      fields: {
        maxFileSize: 'En büyük dosya (bayt)',
        allowedMimeTypes: 'İzin verilen dosya türleri',
        storageQuotaBytes: 'Depolama kotası (bayt)',
        purgeAfterDays: 'Silinen dosyaları kalıcı silme süresi (gün)',
        textLanguage: 'Metnin dili',
      },
      help: {
        allowedMimeTypes: 'Virgülle ayrılmış MIME türleri; boş bırakılırsa her tür.',
        textLanguage: 'Metni, dilini belirlemeye yetmeyecek kadar kısa olan dosyaların sözcüklerinin dizinlendiği dil.',
      },
      values: { textLanguage: { english: 'İngilizce', turkish: 'Türkçe' } },
    },
  },
  list: {
    columns: ['crProcessId', 'maxFileSize', 'storageQuotaBytes', 'purgeAfterDays', 'allowedMimeTypes'],
    filters: [],
  },
});
