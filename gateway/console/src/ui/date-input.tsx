import { useContext, useEffect, useRef, useState } from 'react';
import { LanguageContext } from '../shell/i18n.tsx';
import { DATE_HINT, formatDate, parseDate } from '../shell/formats.ts';

const INVALID = { en: 'Write the date as dd/mm/yyyy.', tr: 'Tarihi gg.aa.yyyy biçiminde yazın.' } as const;

/**
 * A date typed in the console's language's one format (shell/formats.ts: `28/11/2026`, `28.11.2026`),
 * not the browser's (`<input type="date">` follows the browser's locale): a text box whose `value`
 * and `onChange` are `YYYY-MM-DD` ('' for none). Text that names no day reports '' and marks the
 * box invalid, so its form is not sent; on leaving the box a valid date is written out in full.
 */
export function DateInput({
  id,
  value,
  onChange,
  required,
  readOnly,
  describedBy,
}: {
  id: string;
  value: string;
  onChange: (iso: string) => void;
  required?: boolean;
  readOnly?: boolean;
  describedBy?: string;
}) {
  const language = useContext(LanguageContext);
  const [text, setText] = useState(() => (value ? formatDate(value, language) : ''));
  const reported = useRef(value);
  const shownIn = useRef(language);
  const box = useRef<HTMLInputElement>(null);
  // a value set from outside (Clear, a reset, another language) is shown; one this box reported is not rewritten while typed
  useEffect(() => {
    if (value !== reported.current || language !== shownIn.current) {
      reported.current = value;
      shownIn.current = language;
      setText(value ? formatDate(value, language) : '');
      box.current?.setCustomValidity('');
    }
  }, [value, language]);
  return (
    <input
      ref={box}
      id={id}
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={DATE_HINT[language]}
      required={required}
      readOnly={readOnly}
      aria-describedby={describedBy}
      value={text}
      onChange={(event) => {
        const typed = event.target.value;
        const iso = parseDate(typed, language);
        setText(typed);
        event.target.setCustomValidity(typed.trim() === '' || iso ? '' : INVALID[language]);
        reported.current = iso ?? '';
        onChange(iso ?? '');
      }}
      onBlur={() => {
        const iso = parseDate(text, language);
        if (iso) setText(formatDate(iso, language));
      }}
    />
  );
}
