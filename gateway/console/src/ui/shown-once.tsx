import { useState } from 'react';
import { Dialog } from './dialog.tsx';

/** The words of a ShownOnce, in the user's language (each feature's catalogue gives them). */
export interface ShownOnceWords {
  title: string;
  /** The warning that it will not be shown again, and what to do if it is lost. */
  once: string;
  label: string;
  copy: string;
  copied: string;
  copyFailed: string;
  done: string;
}

/**
 * A credential shown the one time the platform answers it (a webhook's signing secret, a personal
 * access token): read-only in a field, a Copy button, and the warning that it will not be shown
 * again. Closing it is the user's "I have stored it".
 *
 * @example
 * <ShownOnce value={secret} words={{ title: t('secretTitle'), … }} className="webhook-secret" size={48} onClose={() => setSecret(undefined)} />
 */
export function ShownOnce({
  value,
  words,
  className,
  size,
  onClose,
}: {
  value: string | undefined;
  words: ShownOnceWords;
  className: string;
  size: number;
  onClose: () => void;
}) {
  const [copy, setCopy] = useState<'copied' | 'copyFailed'>();
  const close = () => {
    setCopy(undefined);
    onClose();
  };
  return (
    <Dialog open={value !== undefined} title={words.title} onClose={close}>
      <p role="alert">{words.once}</p>
      <p>
        <label>
          {words.label}
          <br />
          <input className={className} readOnly value={value ?? ''} size={size} onFocus={(event) => event.target.select()} />
        </label>
      </p>
      <p>
        <button
          type="button"
          onClick={() => {
            navigator.clipboard.writeText(value ?? '').then(
              () => setCopy('copied'),
              () => setCopy('copyFailed'),
            );
          }}
        >
          {words.copy}
        </button>{' '}
        <button type="button" className="primary" onClick={close}>
          {words.done}
        </button>
      </p>
      <p role="status">{copy ? words[copy] : ''}</p>
    </Dialog>
  );
}
