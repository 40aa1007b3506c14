import { useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { shellMessages } from './messages.ts';

/** An address the console has no page for. */
export function NotFoundPage() {
  const t = useT(shellMessages);
  return (
    <>
      <PageTitle title={t('notFoundTitle')}>{t('notFoundTitle')}</PageTitle>
      <p>{t('notFoundText')}</p>
    </>
  );
}
