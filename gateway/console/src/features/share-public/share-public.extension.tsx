/**
 * The share link's public page as the shell sees it (extensions/types.ts): `/console/share/:token`,
 * outside the login, loaded when first opened (the shell wraps no public page in Suspense).
 */
import { lazy, Suspense } from 'react';
import type { ConsoleExtension } from '../../extensions/types.ts';
import { useT } from '../../shell/i18n.tsx';
import { sharePublicMessages } from './share-public.messages.ts';

const SharePublicPage = lazy(async () => ({ default: (await import('./share-public.page.tsx')).SharePublicPage }));

function Loading() {
  const t = useT(sharePublicMessages);
  return <p aria-busy="true">{t('checking')}</p>;
}

export const sharePublicExtension: ConsoleExtension = {
  publicPages: [
    {
      path: 'share/:token',
      element: (
        <Suspense fallback={<Loading />}>
          <SharePublicPage />
        </Suspense>
      ),
    },
  ],
};
