import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { useContext } from 'react';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { crudMessages } from './messages.ts';
import { fieldLabel } from './labels.ts';
import { ScalarInput } from './field-input.tsx';
import type { ObjectRow } from './form-values.ts';

/** An `objects` field: a row of small inputs per item, rows added and removed by buttons. */
export function ObjectsInput({
  id,
  field,
  rows,
  onChange,
  crProcessId,
  readOnly,
}: {
  id: string;
  field: ConsoleField;
  rows: ObjectRow[];
  onChange: (rows: ObjectRow[]) => void;
  crProcessId: number;
  readOnly?: boolean;
}) {
  const t = useT(crudMessages);
  const language = useContext(LanguageContext);
  const items = field.of ?? [];
  const empty = (): ObjectRow => Object.fromEntries(items.map((item) => [item.name, item.kind === 'boolean' ? false : '']));
  const setCell = (index: number, name: string, value: string | boolean) => onChange(rows.map((row, at) => (at === index ? { ...row, [name]: value } : row)));
  return (
    <div className="objects-input" id={id}>
      {rows.map((row, index) => (
        <fieldset key={index} className="object-row">
          <legend className="visually-hidden">{t('row', { row: index + 1 })}</legend>
          {items.map((item) => {
            const control = `${id}-${index}-${item.name}`;
            return (
              <span key={item.name} className="object-cell">
                <label htmlFor={control}>{fieldLabel(item, language)}</label>{' '}
                {item.kind === 'boolean' ? (
                  <input
                    id={control}
                    type="checkbox"
                    disabled={readOnly}
                    checked={row[item.name] === true}
                    onChange={(event) => setCell(index, item.name, event.target.checked)}
                  />
                ) : (
                  <ScalarInput
                    id={control}
                    field={item}
                    value={String(row[item.name] ?? '')}
                    onChange={(value) => setCell(index, item.name, value)}
                    crProcessId={crProcessId}
                    required={item.required}
                    readOnly={readOnly}
                  />
                )}
              </span>
            );
          })}
          {readOnly ? null : (
            <button type="button" onClick={() => onChange(rows.filter((_, at) => at !== index))}>
              {t('removeRow', { row: index + 1 })}
            </button>
          )}
        </fieldset>
      ))}
      {readOnly ? null : (
        <button type="button" onClick={() => onChange([...rows, empty()])}>
          {t('addRow')}
        </button>
      )}
    </div>
  );
}
