import { notePasswordsOf } from './used-secrets.ts';

/**
 * The platform under test, as test/run.ts started it, and a small HTTP client for it. Tests talk to
 * the real gateway over HTTP only.
 */
export interface PlatformUnderTest {
  url: string;
  apiKey: string;
  jwtSecret: string;
  adminUser: string;
  adminPassword: string;
  databaseUrl: string;
  grpc: { core: string; bpm: string; dms: string };
  /** Each service's and each worker's metrics address (`host:port`, GET /metrics). */
  metrics: { 'core-svc'?: string; 'bpm-svc'?: string; 'dms-svc'?: string; 'core-worker'?: string; 'bpm-worker'?: string; 'dms-worker'?: string };
  /** The environment the platform's processes got. */
  env: Record<string, string>;
  /** The file its processes' output goes to (JSON lines, each prefixed `[service]`). */
  logFile: string;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the suite with \`npm test\` (test/run.ts starts the platform)`);
  return value;
}

export const platform: PlatformUnderTest = {
  url: required('PLATFORM_URL'),
  apiKey: required('PLATFORM_API_KEY'),
  jwtSecret: required('PLATFORM_JWT_SECRET'),
  adminUser: required('PLATFORM_ADMIN_USER'),
  adminPassword: required('PLATFORM_ADMIN_PASSWORD'),
  databaseUrl: required('PLATFORM_DATABASE_URL'),
  grpc: { core: required('PLATFORM_CORE_GRPC'), bpm: required('PLATFORM_BPM_GRPC'), dms: required('PLATFORM_DMS_GRPC') },
  env: JSON.parse(required('PLATFORM_ENV')) as Record<string, string>,
  metrics: JSON.parse(process.env.PLATFORM_METRICS ?? '{}') as PlatformUnderTest['metrics'],
  logFile: required('PLATFORM_LOG_FILE'),
};

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface ApiOptions {
  /** A JSON value, or a raw string sent as is. */
  body?: unknown;
  raw?: string | Uint8Array;
  token?: string;
  apiKey?: string | boolean;
  headers?: Record<string, string>;
  baseUrl?: string;
}

/**
 * One HTTP call to the gateway. The response body is parsed as JSON when it is JSON.
 *
 * @example
 * const res = await api('GET', '/api/branch/1', { token });
 */
export async function api<T = any>(method: string, path: string, options: ApiOptions = {}): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  let body: string | Uint8Array | undefined;
  if (options.raw !== undefined) body = options.raw;
  else if (options.body !== undefined) {
    notePasswordsOf(options.body);
    body = JSON.stringify(options.body);
  }
  if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.apiKey === true) headers['x-api-key'] = platform.apiKey;
  else if (typeof options.apiKey === 'string') headers['x-api-key'] = options.apiKey;
  const response = await fetch(`${options.baseUrl ?? platform.url}${path}`, { method, headers, body, redirect: 'manual' });
  const text = await response.text();
  let parsed: unknown = text;
  // a HEAD answer has the type of its GET and no body
  if (text !== '' && response.headers.get('content-type')?.includes('application/json')) parsed = JSON.parse(text);
  return { status: response.status, headers: response.headers, body: parsed as T, text };
}
