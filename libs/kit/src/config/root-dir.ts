import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (libs/kit/src/config → ../../../..): where a process finds `proto/`, and by
 * default `.data/` and the console's `dist/`; the tests and scripts resolve their paths from it.
 */
export const ROOT_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../..');
