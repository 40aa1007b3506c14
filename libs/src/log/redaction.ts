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
];
const SECRET_HEADERS = ['authorization', 'cookie', 'set-cookie', 'x-api-key'];

/** pino's `redact.paths`. */
export const REDACTED_PATHS: readonly string[] = [
  ...SECRET_FIELDS.flatMap((name) => [name, `*.${name}`]),
  ...SECRET_HEADERS.flatMap((name) => [`headers["${name}"]`, `*.headers["${name}"]`]),
];

export const CENSOR = '[REDACTED]';

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
