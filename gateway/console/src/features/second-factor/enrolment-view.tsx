import { useT } from '../../shell/i18n.tsx';
import { secondFactorMessages } from './messages.ts';

/** A TOTP secret to add to an authenticator app: its QR code (an SVG data: URL the platform drew) and the key as text. */
export interface Enrolment {
  secret: string;
  otpauthUri: string;
  qrCode: string;
}

/** The QR code and the key of an enrolment. */
export function EnrolmentView({ enrolment }: { enrolment: Enrolment }) {
  const t = useT(secondFactorMessages);
  return (
    <figure className="totp-enrolment">
      <img src={enrolment.qrCode} alt={t('qrAlt')} width={200} height={200} data-otpauth={enrolment.otpauthUri} />
      <figcaption>
        {t('secretKey')}: <code className="totp-secret">{enrolment.secret}</code>
      </figcaption>
    </figure>
  );
}
