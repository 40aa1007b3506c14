import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { ScalarInput } from './field-input.tsx';
import { ObjectsInput } from './objects-input.tsx';
import type { FormValue, ObjectRow } from './form-values.ts';

/** One field's control in a form, by its kind: a checkbox, rows of objects, lines of strings, or a scalar input. */
export function FieldControl({
  id,
  field,
  value,
  onChange,
  crProcessId,
  readOnly,
  describedBy,
  invalid,
}: {
  id: string;
  field: ConsoleField;
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
  crProcessId: number;
  readOnly: boolean;
  describedBy?: string;
  invalid?: boolean;
}) {
  if (field.kind === 'boolean') {
    return (
      <input
        id={id}
        type="checkbox"
        disabled={readOnly}
        checked={value === true}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
    );
  }
  if (field.kind === 'objects') {
    return (
      <ObjectsInput
        id={id}
        field={field}
        rows={Array.isArray(value) ? value : []}
        onChange={(rows: ObjectRow[]) => onChange(rows)}
        crProcessId={crProcessId}
        readOnly={readOnly}
      />
    );
  }
  if (field.kind === 'strings') {
    return (
      <textarea
        id={id}
        rows={4}
        readOnly={readOnly}
        aria-describedby={describedBy}
        aria-invalid={invalid || undefined}
        value={String(value ?? '')}
        onChange={(event) => onChange(event.target.value)}
      />
    );
  }
  return (
    <ScalarInput
      id={id}
      field={field}
      value={String(value ?? '')}
      onChange={onChange}
      crProcessId={crProcessId}
      required={field.required && !field.writeOnly}
      readOnly={readOnly}
      describedBy={describedBy}
      invalid={invalid}
    />
  );
}
