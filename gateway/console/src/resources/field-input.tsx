import { useContext } from 'react';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { valueLabel } from './labels.ts';
import { useManifest } from './manifest.tsx';
import { crudMessages } from './messages.ts';
import { ReferencePicker } from './reference-picker.tsx';
import { DateInput } from '../ui/date-input.tsx';

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
  /** Refused by the platform (a form's field named by an error): aria-invalid. */
  invalid?: boolean;
  /** In a filter: an enum's empty choice reads "Any". */
  emptyLabel?: string;
  /** A filter's control: no pattern (a filter names a value, the form checks what is written). */
  filter?: boolean;
}

/**
 * The control of one scalar value by its kind: text and patterns, numbers with their bounds,
 * decimals, dates and times, an enum's values, and a reference as a picker over its target.
 */
export function ScalarInput({ id, field, value, onChange, crProcessId, required, readOnly, describedBy, invalid, emptyLabel, filter }: ScalarInputProps) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const resources = useManifest().resources;
  const common = { id, required, readOnly, 'aria-describedby': describedBy, 'aria-invalid': invalid || undefined };
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
              {valueLabel(field, each, language)}
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
      return <DateInput id={id} value={value} onChange={onChange} required={required} readOnly={readOnly} describedBy={describedBy} />;
    case 'datetime':
      // a filter names days (filter-values.ts); a form writes the instant
      if (filter) return <DateInput id={id} value={value} onChange={onChange} describedBy={describedBy} />;
      return <DateInput id={id} value={value} onChange={onChange} required={required} readOnly={readOnly} describedBy={describedBy} withTime />;
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
