import { useT } from '../../shell/i18n.tsx';
import { ShownOnce } from '../../ui/shown-once.tsx';
import { webhookMessages } from './messages.ts';

/**
 * A signing secret shown the one time the platform answers it (the create and rotate answers;
 * every read has `secret: null`), with the warning that it will not be shown again.
 */
export function SecretOnce({ secret, onClose }: { secret: string | undefined; onClose: () => void }) {
  const t = useT(webhookMessages);
  const words = {
    title: t('secretTitle'),
    once: t('secretOnce'),
    label: t('secretLabel'),
    copy: t('copy'),
    copied: t('copied'),
    copyFailed: t('copyFailed'),
    done: t('done'),
  };
  return <ShownOnce value={secret} words={words} className="webhook-secret" size={48} onClose={onClose} />;
}
