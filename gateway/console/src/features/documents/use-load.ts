/**
 * A call's answer as state for a component: loading, the value or the platform's error, and a
 * reload. A newer load aborts the one before, so a slow old answer never overwrites a new one.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface Loaded<T> {
  value: T | undefined;
  error: string | undefined;
  loading: boolean;
  reload: () => void;
}

export function useLoad<T>(load: (signal: AbortSignal) => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [value, setValue] = useState<T>();
  const [error, setError] = useState<string>();
  const [loading, setLoading] = useState(true);
  const [round, setRound] = useState(0);
  const current = useRef<AbortController | null>(null);

  useEffect(() => {
    current.current?.abort();
    const controller = new AbortController();
    current.current = controller;
    setLoading(true);
    load(controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setValue(answer);
        setError(undefined);
        setLoading(false);
      },
      (failure: Error) => {
        if (controller.signal.aborted) return;
        setError(failure.message);
        setLoading(false);
      },
    );
    return () => controller.abort();
    // the caller names what the load depends on
  }, [...deps, round]);

  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { value, error, loading, reload };
}
