/**
 * One write of an access section at a time, with its outcome for the user: a message after it, the
 * platform's error (in the chosen language) when refused, and the section's data read again either
 * way, so what the boxes show is what the platform holds. Until that read answers, the box written
 * shows what was asked of it.
 */
import { useEffect, useState } from 'react';
import type { Loaded } from '../../shell/use-load.ts';

export interface Write {
  /** The key of the box being written (a role code, a group id), while its call runs. */
  pending: string | undefined;
  done: string | undefined;
  error: unknown;
  /** Runs `call` for the box `key`, which is to show `wanted` until the section's data is read again. */
  run: (key: string, call: () => Promise<unknown>, message: string, wanted?: boolean) => Promise<void>;
  /** What the box `key` shows: `held` as read, or what was asked of it while that is being read again. */
  shown: (key: string, held: boolean) => boolean;
}

export function useWrite(data: Loaded<unknown>): Write {
  const [pending, setPending] = useState<string>();
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<unknown>();
  const [asked, setAsked] = useState<{ key: string; wanted: boolean }>();
  // a new answer of the section's read replaces what was asked (the boxes wait for it: no write
  // starts while the section reads, so the answer is one read after the write)
  useEffect(() => setAsked(undefined), [data.value]);
  const run = async (key: string, call: () => Promise<unknown>, message: string, wanted?: boolean) => {
    setPending(key);
    setDone(undefined);
    setError(undefined);
    setAsked(wanted === undefined ? undefined : { key, wanted });
    try {
      await call();
      setDone(message);
    } catch (failure) {
      setAsked(undefined);
      setError(failure);
    } finally {
      setPending(undefined);
      data.reload();
    }
  };
  const shown = (key: string, held: boolean) => (asked?.key === key ? asked.wanted : held);
  return { pending, done, error, run, shown };
}
