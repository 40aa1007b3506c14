import { int, type Env } from './env.ts';

/**
 * The bounds of an imported file (docs/interface.md#import), read by the gateway (the upload's
 * 413) and by the services (the parse): IMPORT_MAX_BYTES the file (default 20 MiB, 413
 * SVC-SYS-3001 beyond), IMPORT_MAX_LINE_BYTES one CSV line (default 1 MiB),
 * IMPORT_MAX_INFLATED_BYTES what an XLSX's entries hold once inflated (default 512 MiB) and
 * IMPORT_MAX_RATIO how many times larger than compressed an entry over 1 MiB may be (default 200):
 * a zip bomb is refused from its central directory before anything is inflated.
 */
export interface ImportLimits {
  maxBytes: number;
  maxLineBytes: number;
  maxInflatedBytes: number;
  maxRatio: number;
}

const MIB = 1024 * 1024;

export function importLimitsOf(env: Env = process.env): ImportLimits {
  return {
    maxBytes: int(env, 'IMPORT_MAX_BYTES', 20 * MIB, 1024, 256 * MIB),
    maxLineBytes: int(env, 'IMPORT_MAX_LINE_BYTES', MIB, 1024, 64 * MIB),
    maxInflatedBytes: int(env, 'IMPORT_MAX_INFLATED_BYTES', 512 * MIB, MIB, 4096 * MIB),
    maxRatio: int(env, 'IMPORT_MAX_RATIO', 200, 2, 100_000),
  };
}
