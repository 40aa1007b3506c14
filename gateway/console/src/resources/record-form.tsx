import { useContext, useId, type FormEvent, type ReactNode } from 'react';
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';
import { fieldHelp, fieldLabel } from './labels.ts';
import { formFields } from './fields.ts';
import { ScalarInput } from './field-input.tsx';
import { ObjectsInput } from './objects-input.tsx';
import { TenantPicker } from './tenant-picker.tsx';
import type { FormMode, FormValue, FormValues, ObjectRow } from './form-values.ts';

function FieldControl({
  id,
  field,
  value,
  onChange,
  crProcessId,
  readOnly,
  describedBy,
}: {
  id: string;
  field: ConsoleField;
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
  crProcessId: number;
  readOnly: boolean;
  describedBy?: string;
}) {
  if (field.kind === 'boolean') {
    return (
      <input
        id={id}
        type="checkbox"
        disabled={readOnly}
        checked={value === true}
        aria-describedby={describedBy}
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
    />
  );
}

/**
 * A create or edit form of any resource, one control per writable field by its kind: required
 * ones marked, immutable ones read-only on edit, write-only ones empty on edit (kept when left so);
 * on create the tenant (a super user's choice).
 */
export function RecordForm({
  resource,
  mode,
  values,
  onChange,
  crProcessId,
  onTenant,
  changed,
  busy,
  onSubmit,
  children,
}: {
  resource: ConsoleResource;
  mode: FormMode;
  values: FormValues;
  onChange: (name: string, value: FormValue) => void;
  crProcessId: number;
  /** A super user's tenant choice on create. */
  onTenant?: (crProcessId: number) => void;
  /** Fields someone else changed (after a conflict's reload): marked. */
  changed?: readonly string[];
  busy: boolean;
  onSubmit: () => void;
  children?: ReactNode;
}) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const id = useId();
  return (
    <form
      className="record-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {mode === 'create' && onTenant ? <TenantPicker value={crProcessId} onChange={onTenant} /> : null}
      {formFields(resource).map((field) => {
        const control = `${id}-${field.name}`;
        const readOnly = mode === 'edit' && field.immutable === true;
        const hints = [
          fieldHelp(field, language) ?? '',
          field.kind === 'strings' ? t('oneLine') : '',
          mode === 'edit' && field.writeOnly ? t('writeOnlyHint') : '',
          changed?.includes(field.name) ? t('changedFields', { fields: fieldLabel(field, language) }) : '',
        ].filter(Boolean);
        const hintId = hints.length > 0 ? `${control}-hint` : undefined;
        const required = field.required && !(mode === 'edit' && field.writeOnly);
        return (
          <div key={field.name} className={`form-row${changed?.includes(field.name) ? ' changed' : ''}`}>
            <label htmlFor={control}>
              {fieldLabel(field, language)}
              {required ? (
                <span className="required-mark" title={t('required')}>
                  {' '}
                  *
                </span>
              ) : null}
            </label>
            <FieldControl
              id={control}
              field={field}
              value={values[field.name]}
              onChange={(value) => onChange(field.name, value)}
              crProcessId={crProcessId}
              readOnly={readOnly}
              describedBy={hintId}
            />
            {hintId ? (
              <p id={hintId} className="hint">
                {hints.join(' ')}
              </p>
            ) : null}
          </div>
        );
      })}
      {children}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('saving') : t('save')}
        </button>
      </div>
    </form>
  );
}
