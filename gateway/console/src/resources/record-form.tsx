import { useContext, useEffect, useId, useRef, type FormEvent, type ReactNode } from 'react';
import type { ConsoleField, ConsoleResource } from '@platform/contracts/console/manifest.ts';
import { ApiError } from '../shell/api.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';
import { errorMessages } from './error-messages.ts';
import { clerkError } from './error-words.ts';
import { fieldHelp, fieldLabel } from './labels.ts';
import { formFields } from './fields.ts';
import { fieldGroups } from './sections.ts';
import { FieldControl } from './field-control.tsx';
import { TenantPicker } from './tenant-picker.tsx';
import type { FormMode, FormValue, FormValues } from './form-values.ts';
import './sections.css';

/**
 * A create or edit form of any resource, its fields in the resource's declared sections (one
 * column on a phone), one control per writable field by its kind: required ones marked, immutable
 * ones read-only on edit, write-only ones empty on edit (kept when left so); on create the tenant
 * (a super user's choice). A refusal is said in a clerk's words (error-words.ts): beside its field
 * when it names one, which then takes the focus.
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
  error,
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
  /** The last save's refusal, if any. */
  error?: unknown;
  onSubmit: () => void;
  children?: ReactNode;
}) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const fields = formFields(resource);
  const refusal = error ? clerkError(error, resource, language, values) : undefined;
  const refused = refusal?.field !== undefined && fields.some((field) => field.name === refusal.field) ? refusal.field : undefined;
  useEffect(() => {
    if (refused) form.current?.querySelector<HTMLElement>(`[id="${id}-${refused}"]`)?.focus();
  }, [error, refused, id]);

  const row = (field: ConsoleField) => {
    const control = `${id}-${field.name}`;
    const readOnly = mode === 'edit' && field.immutable === true;
    const hints = [
      fieldHelp(field, language) ?? '',
      field.kind === 'strings' ? t('oneLine') : '',
      mode === 'edit' && field.writeOnly ? t('writeOnlyHint') : '',
      changed?.includes(field.name) ? t('changedFields', { fields: fieldLabel(field, language) }) : '',
    ].filter(Boolean);
    const hintId = hints.length > 0 ? `${control}-hint` : undefined;
    const errorId = refused === field.name ? `${control}-error` : undefined;
    const describedBy = [errorId, hintId].filter(Boolean).join(' ') || undefined;
    const required = field.required && !(mode === 'edit' && field.writeOnly);
    const wide = field.kind === 'objects' || field.kind === 'strings' || field.kind === 'text';
    return (
      <div key={field.name} className={`form-row${wide ? ' wide' : ''}${changed?.includes(field.name) ? ' changed' : ''}${errorId ? ' refused' : ''}`}>
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
          describedBy={describedBy}
          invalid={errorId !== undefined}
        />
        {errorId ? (
          <p id={errorId} className="field-error">
            {refusal?.text}
          </p>
        ) : null}
        {hintId ? (
          <p id={hintId} className="hint">
            {hints.join(' ')}
          </p>
        ) : null}
      </div>
    );
  };

  const refusedField = fields.find((field) => field.name === refused);
  const code = error instanceof ApiError ? error.code : undefined;
  return (
    <form
      ref={form}
      className="record-form"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {mode === 'create' && onTenant ? <TenantPicker value={crProcessId} onChange={onTenant} /> : null}
      {fieldGroups(resource, fields, language).map((group, index) => (
        <fieldset key={group.title ?? `rest-${index}`} className="form-section">
          <legend>{group.title ?? t('otherFields')}</legend>
          <div className="form-section-fields">{group.fields.map(row)}</div>
        </fieldset>
      ))}
      {refusal ? (
        <p role="alert" className="error-alert">
          {refusedField ? errorMessages[language].notSavedSee.replace('{field}', fieldLabel(refusedField, language)) : refusal.text}
          {code ? <span className="error-code"> ({code})</span> : null}
        </p>
      ) : null}
      {children}
      <div className="actions">
        <button type="submit" className="primary" disabled={busy}>
          {busy ? t('saving') : t('save')}
        </button>
      </div>
    </form>
  );
}
