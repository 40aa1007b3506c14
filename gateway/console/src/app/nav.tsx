import { useContext } from 'react';
import { NavLink } from 'react-router';
import type { ConsoleGroup } from '@platform/contracts/console/manifest.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { pluralLabel } from '../resources/labels.ts';
import { useManifest } from '../resources/manifest.tsx';
import { extensions } from './extensions.ts';
import { shellMessages } from './messages.ts';

type Group = ConsoleGroup | 'overview' | 'operations';

const GROUPS: readonly { group: Group; label: 'groupOverview' | 'groupCore' | 'groupPartners' | 'groupDocuments' | 'groupOperations' }[] = [
  { group: 'overview', label: 'groupOverview' },
  { group: 'core', label: 'groupCore' },
  { group: 'partners', label: 'groupPartners' },
  { group: 'documents', label: 'groupDocuments' },
  { group: 'operations', label: 'groupOperations' },
];

/**
 * The menu, grouped: every listable resource of the manifest the user may read, and the
 * extensions' pages whose entries are visible to the user. An empty group is not shown.
 */
export function Nav() {
  const t = useT(shellMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const entries: { group: Group; to: string; label: string }[] = [
    ...useManifest()
      .resources.filter((resource) => resource.operations.list && access.can(`${resource.path}:read`))
      .map((resource) => ({ group: resource.group as Group, to: `/${resource.path}`, label: pluralLabel(resource) })),
    ...extensions.flatMap((extension) =>
      (extension.pages ?? []).flatMap((page) =>
        page.menu && (page.menu.visible?.(access) ?? true) ? [{ group: page.menu.group as Group, to: `/${page.path}`, label: page.menu.label(language) }] : [],
      ),
    ),
  ];
  return (
    <nav aria-label={t('mainNav')} className="app-nav">
      {GROUPS.map(({ group, label }) => {
        const items = entries.filter((entry) => entry.group === group);
        if (items.length === 0) return null;
        return (
          <section key={group} aria-labelledby={`nav-${group}`}>
            <h2 id={`nav-${group}`}>{t(label)}</h2>
            <ul>
              {items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
