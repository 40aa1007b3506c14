/**
 * What people read for an event of a record's history: the last part of its type (`accrual.approved`
 * → "Approved" / "Onaylandı"), in every language. Typed against the event catalogue (events.ts), so
 * an event whose words are missing is a compile error. Types only from there: the console imports
 * this file.
 */
import type { Texts } from '@platform/kit/resource/labels.ts';
import type { EventType } from './events.ts';

/** The last part of an event type: `created`, `approved`, `legal-hold-set`. */
export type EventWhat = EventType extends `${string}.${infer What}` ? What : never;

export const EVENT_LABELS: Readonly<Record<EventWhat, Texts>> = {
  created: { en: 'Created', tr: 'Oluşturuldu' },
  updated: { en: 'Updated', tr: 'Güncellendi' },
  deleted: { en: 'Deleted', tr: 'Silindi' },
  demoted: { en: 'Super user role taken away', tr: 'Süper kullanıcılık kaldırıldı' },
  'password-changed': { en: 'Password changed', tr: 'Parola değiştirildi' },
  'second-factor-enrolled': { en: 'Second factor turned on', tr: 'İkinci doğrulama açıldı' },
  'second-factor-disabled': { en: 'Second factor turned off', tr: 'İkinci doğrulama kapatıldı' },
  'second-factor-reset': { en: 'Second factor reset by an administrator', tr: 'İkinci doğrulama yönetici tarafından sıfırlandı' },
  'select-removed': { en: 'Account access removed', tr: 'Hesap erişimi kaldırıldı' },
  approved: { en: 'Approved', tr: 'Onaylandı' },
  invoiced: { en: 'Invoiced', tr: 'Faturalandı' },
  cancelled: { en: 'Cancelled', tr: 'İptal edildi' },
  uploaded: { en: 'Uploaded', tr: 'Yüklendi' },
  moved: { en: 'Moved to another category', tr: 'Başka kategoriye taşındı' },
  'legal-hold-set': { en: 'Legal hold set', tr: 'Yasal saklama başlatıldı' },
  'legal-hold-released': { en: 'Legal hold released', tr: 'Yasal saklama kaldırıldı' },
  purged: { en: 'Purged', tr: 'Kalıcı silindi' },
  accessed: { en: 'Downloaded by share link', tr: 'Paylaşım bağlantısıyla indirildi' },
  ended: { en: 'Ended', tr: 'Sonlandırıldı' },
};
