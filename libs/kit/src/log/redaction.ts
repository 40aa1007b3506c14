/**
 * What never reaches a log line. Field names are redacted by pino wherever a log object carries
 * them (at the top or one level down, headers of a logged request or response included); free
 * text — an error's message and stack, which may quote SQL or a URL — is scrubbed of the secrets
 * that have a recognisable shape.
 */
const SECRET_FIELDS = [
  'password',
  'newPassword',
  'currentPassword',
  'passwordHash',
  'token',
  'accessToken',
  'captchaToken',
  'authorization',
  'cookie',
  'apiKey',
  'secret',
  'jwtSecret',
  'coreApiKey',
  'dmsUrlSecret',
  'gatewayCallKey',
  'consoleCsrfSecret',
  'dmsFilePortSecret',
];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key', 'x-platform-file-credential'];

/**
 * pino's `redact.paths`: the secret names at the top of a log object only. A wildcard path
 * (`*.password`) would make pino run its redactor over every value of every line — it parses each
 * of its paths again per value, about 14 KB of garbage per access line — so one level down is
 * `redactNested`'s, run as the log formatter, which looks only at the object-valued fields a line has.
 */
export const REDACTED_PATHS: readonly string[] = [...SECRET_FIELDS, ...SECRET_HEADERS.map((name) => `headers["${name}"]`)];

const SECRET_FIELD_NAMES = new Set(SECRET_FIELDS);
const SECRET_HEADER_NAMES = new Set(SECRET_HEADERS);

export const CENSOR = '[REDACTED]';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/** `fields` with each secret name censored (and a `headers` object's secret headers), or `fields` itself when it has none. */
function censored(fields: Record<string, unknown>, secret: ReadonlySet<string>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(fields)) {
    const value = fields[key];
    if (secret.has(key)) (copy ??= { ...fields })[key] = CENSOR;
    else if (key === 'headers' && isPlainObject(value)) {
      const headers = censored(value, SECRET_HEADER_NAMES);
      if (headers !== value) (copy ??= { ...fields })[key] = headers;
    }
  }
  return copy ?? fields;
}

/**
 * pino's log formatter: `object` with the secret fields of its plain-object fields censored (one
 * level down, as `*.password` and `*.headers["cookie"]` would), copying only what it changes; the
 * top level is pino's own `redact` (REDACTED_PATHS).
 *
 * @example
 * redactNested({ user: { apiKey: 'k' }, port: 1 }) // { user: { apiKey: '[REDACTED]' }, port: 1 }
 */
export function redactNested(object: Record<string, unknown>): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key of Object.keys(object)) {
    const value = object[key];
    if (!isPlainObject(value)) continue;
    const redacted = censored(value, SECRET_FIELD_NAMES);
    if (redacted !== value) (copy ??= { ...object })[key] = redacted;
  }
  return copy ?? object;
}

const SHAPED = [
  // a JWT (header and payload are base64url JSON objects, so both begin eyJ)
  { pattern: /eyJ[\w-]*\.eyJ[\w-]*\.[\w-]*/g, replacement: CENSOR },
  // a bcrypt hash (user and share-link passwords)
  { pattern: /\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}/g, replacement: CENSOR },
  // the signature of a signed download URL or of a validated share link
  { pattern: /([?&]token=)[^&\s"']+/g, replacement: `$1${CENSOR}` },
  // a share link's token in its public path
  { pattern: /(\/dms-share-link\/public\/)[^/?\s"']+/g, replacement: `$1${CENSOR}` },
];

/**
 * `text` without JWTs, bcrypt hashes, signed-URL tokens and share-link tokens.
 *
 * @example
 * scrubSecrets('GET /x?id=1&token=abc') // 'GET /x?id=1&token=[REDACTED]'
 */
export function scrubSecrets(text: string): string {
  let scrubbed = text;
  for (const { pattern, replacement } of SHAPED) scrubbed = scrubbed.replace(pattern, replacement);
  return scrubbed;
}
