import { Outlet } from 'react-router';
import { useT } from '../shell/i18n.tsx';
import { shellMessages } from './messages.ts';
import { Header } from './header.tsx';
import { Nav } from './nav.tsx';
import { useMenuDisclosure } from './menu.tsx';
import { Toasts } from '../ui/toasts.tsx';

/** The logged-in frame: a skip link, the banner, the menu (behind a button on a phone) and the page in <main>. */
export function Layout() {
  const t = useT(shellMessages);
  const menu = useMenuDisclosure();
  return (
    <div className="app-frame">
      <a href="#main" className="skip-link">
        {t('skipToContent')}
      </a>
      <Header menuButton={menu.button} />
      <div className="app-body">
        {menu.panel(<Nav />)}
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <Toasts />
    </div>
  );
}
