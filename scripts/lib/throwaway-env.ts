import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** The secrets a throwaway platform was given, for a test or benchmark to use (the admin's password, the API key). */
export interface TestSecrets {
  JWT_SECRET: string;
  CORE_API_KEY: string;
  DMS_URL_SECRET: string;
  GATEWAY_CALL_KEY: string;
  CONSOLE_CSRF_SECRET: string;
  DMS_FILE_PORT_SECRET: string;
  ADMIN_PASSWORD: string;
}

/**
 * The environment of a throwaway platform (tests, benchmarks): APP_ENV=test, fresh random secrets,
 * its data under `workDir`, warnings and errors only in the log. `databaseUrl` is what the services
 * serve on; the owner's, when another role (a fresh database's `servingUrl`), goes in `extra` as
 * DATABASE_OWNER_URL.
 */
export function throwawayEnv(databaseUrl: string, workDir: string, extra: Env = {}): { env: Record<string, string>; secrets: TestSecrets } {
  const secrets: TestSecrets = {
    JWT_SECRET: randomBytes(32).toString('hex'),
    CORE_API_KEY: randomBytes(16).toString('hex'),
    DMS_URL_SECRET: randomBytes(32).toString('hex'),
    GATEWAY_CALL_KEY: randomBytes(32).toString('hex'),
    CONSOLE_CSRF_SECRET: randomBytes(32).toString('hex'),
    DMS_FILE_PORT_SECRET: randomBytes(32).toString('hex'),
    ADMIN_PASSWORD: randomBytes(12).toString('base64url'),
  };
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? workDir,
    APP_ENV: 'test',
    DATABASE_URL: databaseUrl,
    DATA_DIR: join(workDir, 'data'),
    LOG_LEVEL: 'warn',
    ...secrets,
  };
  for (const [name, value] of Object.entries(extra)) if (value !== undefined) env[name] = value;
  return { env, secrets };
}
