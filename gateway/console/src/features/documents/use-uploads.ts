/**
 * The uploads of the documents page: several at once, each with its progress, a cancel and, after
 * a failure, a retry under the same Idempotency-Key (a retry of an upload whose answer was lost
 * answers the first upload instead of storing the file twice; docs/interface.md#idempotent-requests).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { startUpload, type UploadedFile } from './upload.request.ts';

export type UploadState = 'sending' | 'done' | 'failed' | 'cancelled';

export interface UploadItem {
  id: string;
  file: File;
  fields: Readonly<Record<string, string>>;
  idempotencyKey: string;
  sent: number;
  total: number;
  state: UploadState;
  /** The platform's message (or empty for a lost connection) when failed. */
  error?: string;
  result?: UploadedFile;
}

export interface Uploads {
  items: readonly UploadItem[];
  add: (files: readonly File[], fields: Readonly<Record<string, string>>) => void;
  cancel: (id: string) => void;
  retry: (id: string) => void;
  dismiss: (id: string) => void;
}

/** `onUploaded` runs after each upload that the platform stored (the page reloads its list). */
export function useUploads(onUploaded: (file: UploadedFile) => void): Uploads {
  const [items, setItems] = useState<UploadItem[]>([]);
  const aborts = useRef(new Map<string, () => void>());
  const uploaded = useRef(onUploaded);
  useEffect(() => {
    uploaded.current = onUploaded;
  }, [onUploaded]);

  const update = useCallback((id: string, change: Partial<UploadItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...change } : item)));
  }, []);

  const run = useCallback(
    (item: UploadItem) => {
      const running = startUpload({
        file: item.file,
        fields: item.fields,
        idempotencyKey: item.idempotencyKey,
        onProgress: (sent, total) => update(item.id, { sent, total }),
      });
      aborts.current.set(item.id, running.abort);
      running.done.then(
        (result) => {
          update(item.id, { state: 'done', result, sent: item.file.size, total: item.file.size });
          uploaded.current(result);
        },
        (error: Error) => {
          if (error.name === 'AbortError') update(item.id, { state: 'cancelled' });
          else update(item.id, { state: 'failed', error: error.message });
        },
      );
      void running.done.finally(() => aborts.current.delete(item.id)).catch(() => undefined);
    },
    [update],
  );

  const add = useCallback(
    (files: readonly File[], fields: Readonly<Record<string, string>>) => {
      const added = files.map((file): UploadItem => ({
        id: crypto.randomUUID(),
        file,
        fields,
        idempotencyKey: crypto.randomUUID(),
        sent: 0,
        total: file.size,
        state: 'sending',
      }));
      setItems((current) => [...added, ...current]);
      for (const item of added) run(item);
    },
    [run],
  );

  const retry = useCallback(
    (id: string) => {
      const item = items.find((candidate) => candidate.id === id);
      if (!item || item.state === 'sending' || item.state === 'done') return;
      update(id, { state: 'sending', sent: 0, error: undefined });
      run({ ...item, state: 'sending', sent: 0 });
    },
    [items, run, update],
  );

  const cancel = useCallback((id: string) => aborts.current.get(id)?.(), []);
  const dismiss = useCallback((id: string) => setItems((current) => current.filter((item) => item.id !== id)), []);

  // leaving the page stops what is still being sent
  useEffect(() => {
    const running = aborts.current;
    return () => {
      for (const abort of running.values()) abort();
    };
  }, []);

  return { items, add, cancel, retry, dismiss };
}
