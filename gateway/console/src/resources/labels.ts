/**
 * What people read for a field or a resource: the camelCase name humanized (`businessPartnerId` →
 * "Business partner"), with Turkish words for the fields every record has and the usual ones. No
 * entity is named here: a new resource gets its labels from its names.
 */
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import type { Language } from '../shell/language.ts';

const TURKISH_FIELDS: Readonly<Record<string, string>> = {
  id: 'Kimlik',
  version: 'Sürüm',
  crProcessId: 'Kiracı',
  status: 'Durum',
  createdAt: 'Oluşturulma',
  updatedAt: 'Güncellenme',
  createdBy: 'Oluşturan',
  updatedBy: 'Güncelleyen',
  name: 'Ad',
  code: 'Kod',
  description: 'Açıklama',
  email: 'E-posta',
  phone: 'Telefon',
  address: 'Adres',
  title: 'Unvan',
  password: 'Parola',
  currencyCode: 'Para birimi',
  taxNumber: 'Vergi numarası',
};

const ENGLISH_FIELDS: Readonly<Record<string, string>> = { crProcessId: 'Tenant', id: 'ID' };

/** `businessPartnerId` → "Business partner id"; a reference's trailing "Id" dropped. */
export function humanize(name: string, dropId = false): string {
  const base = dropId && /.Id$/.test(name) ? name.slice(0, -2) : name;
  const words = base
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[-_]+/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A field's label in the console's language. */
export function fieldLabel(field: Pick<ConsoleField, 'name' | 'references'>, language: Language): string {
  if (language === 'tr' && TURKISH_FIELDS[field.name]) return TURKISH_FIELDS[field.name] ?? field.name;
  return ENGLISH_FIELDS[field.name] ?? humanize(field.name, field.references !== undefined);
}

/** "Business partners": the resource's plural, humanized. */
export function pluralLabel(resource: Pick<ConsoleResource, 'plural'>): string {
  return humanize(resource.plural);
}

/** "Business partner". */
export function singularLabel(resource: Pick<ConsoleResource, 'name'>): string {
  return humanize(resource.name);
}
