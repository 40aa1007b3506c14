import { useContext, useEffect, useRef, useState } from 'react';
import { LanguageContext } from '../shell/i18n.tsx';
import { DATE_HINT, DATE_TIME_HINT, formatDate, formatLocalDateTime, parseDate, parseLocalDateTime } from '../shell/formats.ts';
import type { Language } from '../shell/language.ts';
import './date-input.css';

const INVALID = { en: 'Write the date as {hint}.', tr: 'Tarihi {hint} biçiminde yazın.' } as const;

/** How the box writes and reads its value: a day, or a day and a time. */
const KINDS = {
  date: { hint: DATE_HINT, format: formatDate, parse: parseDate },
  time: { hint: DATE_TIME_HINT, format: formatLocalDateTime, parse: parseLocalDateTime },
} as const;

const show = (value: string, withTime: boolean | undefined, language: Language): string =>
  value ? KINDS[withTime ? 'time' : 'date'].format(value, language) : '';

/**
 * A date typed in the console's language's one format (shell/formats.ts: `28/11/2026`, `28.11.2026`),
 * not the browser's (`<input type="date">` follows the browser's locale): a text box whose `value`
 * and `onChange` are `YYYY-MM-DD` ('' for none). Text that names no day reports '' and marks the
 * box invalid, so its form is not sent; on leaving the box a valid date is written out in full.
 * `withTime`: a date and a 24-hour time (`28.11.2026 14:05`), the value `YYYY-MM-DDTHH:mm:ss` in
 * local time, as a datetime-local control holds it.
 */
export function DateInput({
  id,
  value,
  onChange,
  required,
  readOnly,
  describedBy,
  withTime,
}: {
  /** Its label's `for`; none when a label wraps it. */
  id?: string;
  value: string;
  onChange: (iso: string) => void;
  required?: boolean;
  readOnly?: boolean;
  describedBy?: string;
  withTime?: boolean;
}) {
  const language = useContext(LanguageContext);
  const kind = KINDS[withTime ? 'time' : 'date'];
  const [text, setText] = useState(() => show(value, withTime, language));
  const reported = useRef(value);
  const shownIn = useRef(language);
  const box = useRef<HTMLInputElement>(null);
  // a value set from outside (Clear, a reset, another language) is shown; one this box reported is not rewritten while typed
  useEffect(() => {
    if (value !== reported.current || language !== shownIn.current) {
      reported.current = value;
      shownIn.current = language;
      setText(show(value, withTime, language));
      box.current?.setCustomValidity('');
    }
  }, [value, language, withTime]);
  return (
    <input
      ref={box}
      id={id}
      className="date-input"
      type="text"
      inputMode="numeric"
      autoComplete="off"
      placeholder={kind.hint[language]}
      required={required}
      readOnly={readOnly}
      aria-describedby={describedBy}
      value={text}
      onChange={(event) => {
        const typed = event.target.value;
        const iso = kind.parse(typed, language);
        setText(typed);
        event.target.setCustomValidity(typed.trim() === '' || iso ? '' : INVALID[language].replace('{hint}', kind.hint[language]));
        reported.current = iso ?? '';
        onChange(iso ?? '');
      }}
      onBlur={() => {
        const iso = kind.parse(text, language);
        if (iso) setText(kind.format(iso, language));
      }}
    />
  );
}
