/**
 * A call's answer as state for a component: its value, whether it is loading, the platform's message
 * when it failed, and a reload. It loads now, again whenever `deps` change, and on `reload()`; a newer
 * load or leaving the page aborts the one before (its signal), so a slow old answer never overwrites
 * a new one. The value and the message stay until the next answer replaces them: a reload shows the
 * old rows while it loads rather than an empty page.
 *
 * @example
 * const page = useLoad((signal) => answer(platform.POST('/api/session/active/list', { body, signal })), [body]);
 */
import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  value: T | undefined;
  error: string | undefined;
  loading: boolean;
  /** Loads again with the same deps (after a write changed what the page shows). */
  reload: () => void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    load(controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setValue(answer);
        setError(undefined);
        setLoading(false);
      },
      (failure: unknown) => {
        if (controller.signal.aborted) return;
        setError(failure instanceof Error ? failure.message : String(failure));
        setLoading(false);
      },
    );
    return () => controller.abort();
    // the caller names what the load depends on
  }, [...deps, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { value, error, loading, reload };
}
