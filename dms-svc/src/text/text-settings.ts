import { ConfigError } from '@platform/kit/config/config-error.ts';
import { bool, int, type Env } from '@platform/kit/config/env.ts';
import type { ExtractionLimits } from './extraction-limits.ts';
import { TEXT_LANGUAGES, type TextLanguage } from './text-language.ts';

/** The text extraction's settings (DMS_TEXT_*, docs/interface.md#configuration). */
export interface TextSettings {
  /** DMS_TEXT_EXTRACTION (default true): whether uploads have their words read; off, a new file's text is SKIPPED. */
  extraction: boolean;
  limits: ExtractionLimits;
  /** DMS_TEXT_LANGUAGE (english, the default, or turkish): a file's language when its text is too short to tell. */
  language: TextLanguage;
  /** How long a run holds its file between renewals (a third of it apart); a dead worker's file is taken again after it. */
  leaseSeconds: number;
  /** DMS_TEXT_SWEEP_INTERVAL_SECONDS (default 60): how often the sweep sends the runs owed (a send lost, a worker died). */
  sweepIntervalSeconds: number;
}

/** Reads DMS_TEXT_*; a wrong value refuses the start. */
export function readTextSettings(env: Env): TextSettings {
  const language = env.DMS_TEXT_LANGUAGE ?? 'english';
  if (!TEXT_LANGUAGES.includes(language as TextLanguage)) {
    throw new ConfigError(`DMS_TEXT_LANGUAGE must be one of ${TEXT_LANGUAGES.join(', ')}, not ${JSON.stringify(language)}`);
  }
  return {
    extraction: bool(env, 'DMS_TEXT_EXTRACTION', true),
    limits: {
      timeoutMs: int(env, 'DMS_TEXT_TIMEOUT_SECONDS', 300, 1, 86_400) * 1000,
      memoryBytes: int(env, 'DMS_TEXT_MEMORY_MB', 1024, 64, 65_536) * 1024 * 1024,
      maxPages: int(env, 'DMS_TEXT_MAX_PAGES', 2000, 1, 1_000_000),
      maxPixels: int(env, 'DMS_TEXT_MAX_PIXELS', 150_000_000, 1_000_000),
      maxChars: int(env, 'DMS_TEXT_MAX_CHARS', 1_000_000, 1000, 100_000_000),
    },
    language: language as TextLanguage,
    leaseSeconds: 30,
    sweepIntervalSeconds: int(env, 'DMS_TEXT_SWEEP_INTERVAL_SECONDS', 60, 1, 86_400),
  };
}
