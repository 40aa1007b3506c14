import type { ConsoleExtension } from './types.ts';
import { documentsExtension } from '../features/documents/documents.extension.tsx';

/** Every feature beyond the CRUD set; the shell reads this list. */
export const extensions: readonly ConsoleExtension[] = [documentsExtension];
