import { ConfigError } from '@platform/kit/config/config-error.ts';
import type { Env } from '@platform/kit/config/env.ts';

/**
 * Whether the services scope their work for the row-level security policies (DATABASE_ROW_SECURITY,
 * docs/adr/0151-row-level-security-the-second-wall.md), read here alone:
 *
 * - `on` (the default): every unit of work says its tenants (db/tenant-scope.ts);
 * - `off`: it says nothing. Only a baseline to measure the wall against (bench/branch-get-rls.ts),
 *   with DATABASE_URL the tables' owner, which the policies do not apply to; under the serving role
 *   every tenant table then looks empty, so `off` can hide rows but never show another tenant's.
 *   Production refuses it.
 *
 * @example
 * const on = rowSecurityOf(process.env) === 'on';
 */
export type RowSecurity = 'on' | 'off';

export function rowSecurityOf(env: Env = process.env): RowSecurity {
  const raw = env.DATABASE_ROW_SECURITY;
  if (raw === undefined || raw === '' || raw === 'on') return 'on';
  if (raw !== 'off') throw new ConfigError(`DATABASE_ROW_SECURITY must be on or off, not ${raw}`);
  if (env.APP_ENV === 'production') throw new ConfigError('DATABASE_ROW_SECURITY=off is a benchmark baseline: production refuses it');
  return 'off';
}
