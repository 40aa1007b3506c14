import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useLogout } from '@refinedev/core';
import { useAccess } from '../shell/access.tsx';
import { useT } from '../shell/i18n.tsx';
import { shellMessages } from './messages.ts';
import { LanguageSwitch } from './language-switch.tsx';
import { TenantSwitcher } from './tenant-switcher.tsx';
import { SearchBox } from '../features/search/search-box.tsx';

/** The banner: the menu's button, the global search, who is logged in, in which tenant, the language, password change, the security page and logout. */
export function Header({ menuButton }: { menuButton: ReactNode }) {
  const t = useT(shellMessages);
  const { me } = useAccess();
  const logout = useLogout();
  return (
    <header className="app-header">
      {menuButton}
      <Link to="/" className="brand">
        {t('console')}
      </Link>
      <SearchBox />
      <span className="header-item">
        {t('user')}: <strong>{me.userCode}</strong>
        {me.superUser ? ` (${t('superUser')})` : ''}
      </span>
      <TenantSwitcher />
      <LanguageSwitch />
      <Link to="/change-password" className="header-item">
        {t('changePassword')}
      </Link>
      <Link to="/security" className="header-item">
        {t('security')}
      </Link>
      <button type="button" onClick={() => logout.mutate()}>
        {t('logout')}
      </button>
    </header>
  );
}
