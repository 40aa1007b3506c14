import { useT } from '../../shell/i18n.tsx';
import { secondFactorMessages } from './messages.ts';

/**
 * Ten recovery codes shown the one time the platform answers them (an enrolment, a regeneration):
 * the warning that they will not be shown again, and "I have stored them" to go on.
 */
export function RecoveryCodesOnce({ codes, onDone }: { codes: readonly string[]; onDone: () => void }) {
  const t = useT(secondFactorMessages);
  return (
    <section className="recovery-codes" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">{t('recoveryTitle')}</h2>
      <p role="alert">{t('recoveryOnce')}</p>
      <ul className="recovery-code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <button type="button" className="primary" onClick={onDone}>
        {t('stored')}
      </button>
    </section>
  );
}
