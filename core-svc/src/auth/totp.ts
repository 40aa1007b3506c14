/**
 * TOTP (RFC 6238) with otplib's defaults, which every authenticator app reads: SHA-1, six digits,
 * thirty-second steps, a secret of 20 random bytes in base32.
 */
import { generateSecret, generateURI, verify } from 'otplib';
import QRCode from 'qrcode';
import type { TotpEnrolment } from '@platform/kit/gen/platform/core/v1/second_factor_challenge.ts';

/** The issuer an authenticator app shows beside the user code. */
const ISSUER = 'Platform';
/** A code of the step before or after the server's clock is accepted too (clock drift; RFC 6238 §5.2). */
const TOLERANCE_SECONDS = 30;
/** A TOTP code as the interface takes it. */
export const CODE_PATTERN = /^\d{6}$/;

/** A new secret, base32. */
export function newSecret(): string {
  return generateSecret();
}

/**
 * What a user adds to its authenticator: the secret, its otpauth:// URI, and the URI's QR code as an
 * SVG data: URL (the console's page policy allows data: images: docs/adr/0084-the-console-s-security-page-policy.md).
 *
 * @example
 * const { qrCode } = await enrolmentOf('alice', newSecret()); // 'data:image/svg+xml;base64,…'
 */
export async function enrolmentOf(userCode: string, secret: string): Promise<TotpEnrolment> {
  const otpauthUri = generateURI({ issuer: ISSUER, label: userCode, secret });
  const svg = await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret, otpauthUri, qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}` };
}

/**
 * The time step of `code` when it is one of `secret`'s within the tolerance and later than
 * `afterStep` (the last step accepted: a code is never accepted twice), else undefined.
 *
 * @example
 * const step = await stepOf(secret, '123456', lastStep);
 * if (step === undefined) throw failed();
 */
export async function stepOf(secret: string, code: string, afterStep: number | null): Promise<number | undefined> {
  if (!CODE_PATTERN.test(code)) return undefined;
  const result = await verify({
    secret,
    token: code,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
