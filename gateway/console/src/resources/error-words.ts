/**
 * A refusal of the platform in words a clerk understands (docs/adr/0123-errors-in-a-clerk-s-words.md):
 * by its error code (decisions §6), and for a field's refusal (the body's `field`) by the field's
 * label and what the field declares, so that "A record with the same partnerCode already exists"
 * reads "Another business partner already has this partner code." beside the field. The platform's
 * own message stays for what has no sentence here. Labels come through fieldLabel (labels.ts).
 */
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { ApiError } from '../shell/api.ts';
import { fill } from '../shell/i18n.tsx';
import type { Language } from '../shell/language.ts';
import { errorMessages } from './error-messages.ts';
import { fieldLabel, singularLabel } from './labels.ts';
import type { FormValue } from './form-values.ts';

export interface ClerkError {
  /** The sentence to show. */
  text: string;
  /** The form field it is about, when the refusal names one the resource has. */
  field?: string;
}

/** A label as it reads inside a sentence: "Partner code" → "partner code"; "ID", "URL" kept. */
export function midSentence(label: string, language: Language): string {
  if (label.length > 1 && label.charAt(1) === label.charAt(1).toUpperCase() && /[A-Za-zÇĞİÖŞÜçğıöşü]/.test(label.charAt(1))) return label;
  return label.charAt(0).toLocaleLowerCase(language) + label.slice(1);
}

function fieldSentence(field: ConsoleField, value: FormValue | undefined, language: Language): string {
  const say = errorMessages[language];
  const label = fieldLabel(field, language);
  const vars = { Field: label, field: midSentence(label, language), min: field.min ?? '', max: field.max ?? field.maxLength ?? '' };
  const text = typeof value === 'string' ? value.trim() : undefined;
  if (text === '' && field.required) return fill(say.required, vars);
  if (field.references) return fill(say.reference, vars);
  if (text !== undefined && field.maxLength !== undefined && [...text].length > field.maxLength) return fill(say.tooLong, { ...vars, max: field.maxLength });
  if (text !== undefined && text !== '' && (field.kind === 'long' || field.kind === 'int' || field.kind === 'decimal')) {
    const number = Number(text.replace(',', '.'));
    if (field.min !== undefined && number < field.min) return fill(say.tooSmall, vars);
    if (field.max !== undefined && number > field.max) return fill(say.tooLarge, vars);
  }
  if (text !== undefined && field.pattern !== undefined && !new RegExp(`^(?:${field.pattern})$`).test(text)) return fill(say.pattern, vars);
  return fill(say.invalidField, vars);
}

/**
 * The sentence for `error` met while working on a record of `resource` (the form's `values`, when a
 * form sent them, tell a field's refusal apart: empty, too long, out of range).
 *
 * @example
 * clerkError(duplicateCode, partner, 'en') // { text: 'Another business partner already has this partner code.', field: 'partnerCode' }
 */
export function clerkError(error: unknown, resource: ConsoleResource, language: Language, values?: Readonly<Record<string, FormValue>>): ClerkError {
  const say = errorMessages[language];
  const kind = midSentence(singularLabel(resource, language), language);
  if (!(error instanceof ApiError)) {
    if (error instanceof TypeError) return { text: say.offline };
    return { text: error instanceof Error ? error.message : String(error) };
  }
  if (error.status === 0) return { text: say.offline };
  if (error.status === 429) return { text: say.tooMany };
  const field = error.field === undefined ? undefined : resource.fields.find((each) => each.name === error.field);
  const named = field ? { Field: fieldLabel(field, language), field: midSentence(fieldLabel(field, language), language) } : undefined;
  switch (error.code) {
    case 'SVC-SYS-4005':
      return field && named
        ? { text: fill(say.duplicate, { ...named, resource: kind }), field: field.name }
        : { text: fill(say.duplicateRecord, { resource: kind }) };
    case 'SVC-SYS-2001':
      return field ? { text: fieldSentence(field, values?.[field.name], language), field: field.name } : { text: say.invalid };
    case 'SVC-SYS-4002':
      return { text: say.stale };
    case 'SVC-SYS-4003':
      return { text: fill(say.referenced, { resource: kind }) };
    case 'SVC-SYS-4004':
      return { text: say.transition };
    case 'SVC-SYS-4001':
      return { text: fill(say.notFound, { resource: kind }) };
    case 'SVC-SYS-1003':
      return { text: say.denied };
    case 'SVC-SYS-1001':
      return { text: say.sessionEnded };
    case 'SVC-SYS-3001':
      return { text: say.fileTooLarge };
    case 'SVC-SYS-3002':
      return { text: say.fileType };
    case 'SVC-SYS-3007':
      return { text: say.quota };
    case 'SVC-SYS-5001':
      return { text: fill(say.server, { refId: error.refId ?? '—' }) };
    case 'SVC-SYS-5002':
      return { text: say.unavailable };
    default:
      return { text: error.message };
  }
}
