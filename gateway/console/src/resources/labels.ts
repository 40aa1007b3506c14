/**
 * What people read for a resource, a field or an enum value: the words of the resource's catalogue,
 * declared with it in the contracts (libs/kit/src/resource/labels.ts) and carried by the manifest.
 * A name the manifest has no words for (a history entry of a field since removed) reads humanized.
 */
import type { ConsoleField, ConsoleResource, Texts } from '@platform/contracts/console/manifest.ts';
import { useContext } from 'react';
import { LanguageContext } from '../shell/i18n.tsx';
import type { Language } from '../shell/language.ts';
import { useManifest } from './manifest.tsx';

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
export function fieldLabel(field: Pick<ConsoleField, 'name'> & { label?: Texts; references?: unknown }, language: Language): string {
  return field.label?.[language] ?? humanize(field.name, field.references !== undefined);
}

/** A field's help in the console's language, where the catalogue has some. */
export function fieldHelp(field: Pick<ConsoleField, 'help'>, language: Language): string | undefined {
  return field.help?.[language];
}

/** An enum value's label in the console's language ("Tedarikçi" for SUPPLIER); the value itself when it has none. */
export function valueLabel(field: Pick<ConsoleField, 'valueLabels'>, value: string, language: Language): string {
  return field.valueLabels?.[value]?.[language] ?? value;
}

/** "Business partners". */
export function pluralLabel(resource: Pick<ConsoleResource, 'labels'>, language: Language): string {
  return resource.labels.other[language];
}

/** "Business partner". */
export function singularLabel(resource: Pick<ConsoleResource, 'labels'>, language: Language): string {
  return resource.labels.one[language];
}

/** The labels of one enum field of a resource, as a function of the value: `useValueLabels('accrual', 'accrualStatus')('PENDING')`. */
export function useValueLabels(path: string, name: string): (value: string) => string {
  const language = useContext(LanguageContext);
  const field = useManifest()
    .resources.find((resource) => resource.path === path)
    ?.fields.find((each) => each.name === name);
  return (value) => (field ? valueLabel(field, value, language) : value);
}

/** The labels of a resource's fields in the console's language, as a function of the name: `useFieldLabels('dms-file')('fileSize')`. */
export function useFieldLabels(path: string): (name: string) => string {
  const language = useContext(LanguageContext);
  const fields = useManifest().resources.find((resource) => resource.path === path)?.fields ?? [];
  return (name) => fieldLabel(fields.find((field) => field.name === name) ?? { name }, language);
}
