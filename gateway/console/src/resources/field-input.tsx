import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { useT } from '../shell/i18n.tsx';
import { useManifest } from './manifest.tsx';
import { crudMessages } from './messages.ts';
import { ReferencePicker } from './reference-picker.tsx';

/** Up to four decimals, as the platform keeps money and quantities (docs/interface.md#records). */
export const DECIMAL_PATTERN = '-?[0-9]+([.,][0-9]{1,4})?';

/** What a scalar control needs: its field, its text value, and the tenant a reference is chosen in. */
export interface ScalarInputProps {
  id: string;
  field: ConsoleField;
  value: string;
  onChange: (value: string) => void;
  /** The tenant whose records a reference picker offers. */
  crProcessId: number;
  required?: boolean;
  readOnly?: boolean;
  describedBy?: string;
  /** In a filter: an enum's empty choice reads "Any". */
  emptyLabel?: string;
  /** A filter's control: no pattern (a filter names a value, the form checks what is written). */
  filter?: boolean;
}

/**
 * The control of one scalar value by its kind: text and patterns, numbers with their bounds,
 * decimals, dates and times, an enum's values, and a reference as a picker over its target.
 */
export function ScalarInput({ id, field, value, onChange, crProcessId, required, readOnly, describedBy, emptyLabel, filter }: ScalarInputProps) {
  const t = useT(crudMessages);
  const access = useAccess();
  const resources = useManifest().resources;
  const common = { id, required, readOnly, 'aria-describedby': describedBy };
  const target = field.references ? resources.find((resource) => resource.path === field.references?.resource) : undefined;
  if (target && field.references && !readOnly && target.operations.list && access.can(`${target.path}:read`)) {
    return (
      <ReferencePicker
        id={id}
        target={target}
        refKey={field.references.key}
        value={value}
        onChange={onChange}
        crProcessId={crProcessId}
        required={required}
        describedBy={describedBy}
        candidates={field.references.candidates}
      />
    );
  }
  switch (field.kind) {
    case 'enum':
      return (
        <select {...common} disabled={readOnly} value={value} onChange={(event) => onChange(event.target.value)}>
          <option value="">{emptyLabel ?? t('choose')}</option>
          {(field.values ?? []).map((each) => (
            <option key={each} value={each}>
              {each}
            </option>
          ))}
        </select>
      );
    case 'long':
    case 'int':
      return <input {...common} type="number" step={1} min={field.min} max={field.max} value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'decimal':
      return <input {...common} type="text" inputMode="decimal" pattern={DECIMAL_PATTERN} value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'date':
      return <input {...common} type="date" value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'datetime':
      return <input {...common} type="datetime-local" step={1} value={value} onChange={(event) => onChange(event.target.value)} />;
    case 'text':
      return <textarea {...common} rows={4} maxLength={field.maxLength} value={value} onChange={(event) => onChange(event.target.value)} />;
    default:
      return (
        <input
          {...common}
          type="text"
          maxLength={field.maxLength}
          pattern={filter ? undefined : field.pattern}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}
