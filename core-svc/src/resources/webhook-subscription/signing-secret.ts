import { randomBytes } from 'node:crypto';

/** Bytes of a signing secret: 24, as the Standard Webhooks specification suggests (between 24 and 64). */
const SECRET_BYTES = 24;

/** A new signing secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(SECRET_BYTES).toString('base64')}`;
}
