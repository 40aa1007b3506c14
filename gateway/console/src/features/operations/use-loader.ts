import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../../shell/api.ts';

/**
 * Loads `load()` now and whenever `deps` change, and again on `reload()`: the value, whether it is
 * loading, and the platform's message when it failed. An answer that arrives after a newer call
 * started is dropped.
 */
export function useLoader<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]) {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const run = useCallback(load, deps);
  useEffect(() => {
    const controller = new AbortController();
    setLoading(true);
    setError(undefined);
    run(controller.signal)
      .then((answer) => {
        if (!controller.signal.aborted) setValue(answer);
      })
      .catch((failure: unknown) => {
        if (!controller.signal.aborted) setError(failure instanceof ApiError ? failure.message : String(failure));
      })
      .finally(() => {
        if (!controller.signal.aborted) setLoading(false);
      });
    return () => controller.abort();
  }, [run, round]);
  return { value, error, loading, reload: () => setRound((n) => n + 1) };
}
