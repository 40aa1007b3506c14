import { createWriteStream, type WriteStream } from 'node:fs';

/** Where children's output goes. */
export type LogTarget<Name extends string = string> =
  /** Each line on this process's stdout/stderr, prefixed `[name]` (default). */
  | 'console'
  /** Nowhere (the last lines are still kept for error messages). */
  | 'silent'
  /** Appended to one file, each line prefixed `[name]`. */
  | { file: string }
  /** Each line to a function. */
  | ((name: Name, line: string, stream: 'stdout' | 'stderr') => void);

/** An opened LogTarget: one line of a named child at a time, closed once. */
export interface Sink<Name extends string> {
  write(name: Name, line: string, stream: 'stdout' | 'stderr'): void;
  close(): Promise<void>;
}

/** Opens `target` for children named among `names` (each line prefixed `[name]`, padded to the longest). */
export function openSink<Name extends string>(target: LogTarget<Name>, names: readonly Name[]): Sink<Name> {
  const width = Math.max(...names.map((name) => name.length));
  const prefix = (name: Name): string => `[${name}]`.padEnd(width + 3);
  if (target === 'silent') return { write: () => undefined, close: async () => undefined };
  if (target === 'console') {
    return {
      write: (name, line, stream) => (stream === 'stderr' ? process.stderr : process.stdout).write(`${prefix(name)}${line}\n`),
      close: async () => undefined,
    };
  }
  if (typeof target === 'function') return { write: target, close: async () => undefined };
  let file: WriteStream | undefined;
  let closed = false;
  return {
    write: (name, line) => {
      if (closed) return;
      if (!file) {
        file = createWriteStream(target.file, { flags: 'a', mode: 0o600 });
        file.on('error', (error) => process.stderr.write(`cannot write ${target.file}: ${error.message}\n`));
      }
      file.write(`${prefix(name)}${line}\n`);
    },
    close: () => {
      closed = true;
      return new Promise<void>((r) => (file ? file.end(() => r()) : r()));
    },
  };
}
