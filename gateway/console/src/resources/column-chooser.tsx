import { useContext, useId, useState } from 'react';
import type { ConsoleField } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { fieldLabel } from './labels.ts';
import { listMessages } from './list-messages.ts';

/**
 * The list's column chooser: a checkbox per column the list may show, in the list's order, and a
 * way back to the declared default. The last column shown cannot be taken away.
 */
export function ColumnChooser({
  columns,
  shown,
  onChoose,
}: {
  columns: readonly ConsoleField[];
  shown: readonly ConsoleField[];
  onChoose: (names: readonly string[] | null) => void;
}) {
  const tl = useT(listMessages);
  const language = useContext(LanguageContext);
  const id = useId();
  // the checkboxes exist only while the chooser is open: their labels are the columns', which the filters' labels repeat
  const [open, setOpen] = useState(false);
  const names = new Set(shown.map((field) => field.name));
  const toggle = (name: string, on: boolean) => {
    const next = new Set(names);
    if (on) next.add(name);
    else next.delete(name);
    onChoose(columns.filter((field) => next.has(field.name)).map((field) => field.name));
  };
  return (
    <details className="column-chooser" open={open} onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>{tl('columns')}</summary>
      {open ? (
        <fieldset>
          <legend className="visually-hidden">{tl('columnsLegend')}</legend>
          <div className="column-options">
            {columns.map((field) => (
              <div key={field.name}>
                <input
                  id={`${id}-${field.name}`}
                  type="checkbox"
                  checked={names.has(field.name)}
                  disabled={names.has(field.name) && names.size === 1}
                  onChange={(event) => toggle(field.name, event.target.checked)}
                />
                <label htmlFor={`${id}-${field.name}`}>{fieldLabel(field, language)}</label>
              </div>
            ))}
          </div>
          <button type="button" onClick={() => onChoose(null)}>
            {tl('defaultColumns')}
          </button>
        </fieldset>
      ) : null}
    </details>
  );
}
