import { useT } from '../shell/i18n.tsx';
import { PageTitle } from '../ui/page-title.tsx';
import { shellMessages } from './messages.ts';

/** The page after login when no other was asked for. */
export function HomePage() {
  const t = useT(shellMessages);
  return (
    <>
      <PageTitle title={t('homeTitle')}>{t('homeTitle')}</PageTitle>
      <p>{t('homeText')}</p>
    </>
  );
}

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
