import { COMMON_FIELDS, type ScalarField } from '@platform/kit/resource/resource.ts';
import { toRowValue } from '@platform/kit/resource/values.ts';
import { invalidField } from '@platform/kit/errors/domain-error.ts';
import { dmsFile } from '@platform/contracts/dms/dms-file.ts';

/** The text fields of the upload form besides `file` (docs/interface.md#files), with their declarations. */
const FORM_FIELDS: Record<string, ScalarField> = {
  crProcessId: COMMON_FIELDS.crProcessId,
  entityType: dmsFile.fields.entityType,
  entityId: dmsFile.fields.entityId,
  integrationKey: dmsFile.fields.integrationKey,
  categoryId: dmsFile.fields.categoryId,
  description: dmsFile.fields.description,
  tags: dmsFile.fields.tags,
};

export function isFormField(name: string): boolean {
  return Object.hasOwn(FORM_FIELDS, name);
}

/**
 * The row values of the form's text fields, checked as the declaration checks them (400
 * SVC-SYS-2001 naming the field): numbers are whole decimal numbers, an empty optional field is
 * absent, crProcessId is required.
 */
export function formValues(fields: ReadonlyMap<string, string>): Record<string, unknown> & { crProcessId: number } {
  const values: Record<string, unknown> = {};
  for (const [name, text] of fields) {
    const spec = FORM_FIELDS[name];
    if (!spec) throw invalidField(name, 'field.unknown');
    if (text === '') continue;
    if (spec.kind === 'long') {
      if (!/^-?\d{1,16}$/.test(text)) throw invalidField(name, 'field.type', { type: 'integer' });
      values[name] = toRowValue(name, spec, Number(text));
    } else {
      values[name] = toRowValue(name, spec, text);
    }
  }
  if (typeof values.crProcessId !== 'number') throw invalidField('crProcessId', 'field.required');
  return values as Record<string, unknown> & { crProcessId: number };
}

/**
 * The characters that reorder how text is shown without being seen (Unicode's bidirectional
 * formatting characters): the embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069,
 * and the marks U+200E, U+200F and U+061C. In a file name they make `a\u202Egnp.exe` show as
 * "aexe.png".
 */
const DIRECTION_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

/**
 * The client's file name as kept: without any path (either separator), checked as a string field;
 * a name holding a direction control is refused (400 SVC-SYS-2001 naming originalFileName), not
 * altered (docs/adr/0031-upload.md).
 */
export function originalNameOf(filename: string | undefined): string {
  const name = (filename ?? '').split(/[\\/]/).pop() ?? '';
  if (name.trim() === '') throw invalidField('file', 'field.required');
  if (DIRECTION_CONTROLS.test(name)) throw invalidField('originalFileName', 'field.directionControl');
  return toRowValue('originalFileName', { kind: 'string', maxLength: 255 }, name) as string;
}
