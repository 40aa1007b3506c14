import type { ConsoleExtension } from './types.ts';

/** Every feature beyond the CRUD set; the shell reads this list. */
export const extensions: readonly ConsoleExtension[] = [];
