import { useContext } from 'react';
import { NavLink, useLocation } from 'react-router';
import { CONSOLE_AREAS, type ConsoleArea } from '@platform/kit/resource/resource.ts';
import { useAccess } from '../shell/access.tsx';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { useManifest } from '../resources/manifest.tsx';
import { extensions } from './extensions.ts';
import { shellMessages } from './messages.ts';

const AREA_LABELS = {
  overview: 'areaOverview',
  partners: 'areaPartners',
  contracts: 'areaContracts',
  documents: 'areaDocuments',
  administration: 'areaAdministration',
  operations: 'areaOperations',
} as const satisfies Record<ConsoleArea, keyof (typeof shellMessages)['en']>;

/**
 * The menu, by area: every listable resource of the manifest with a menu entry the user may read,
 * and the extensions' pages whose entries are visible to the user, each under the name declared
 * with it in the user's language. An empty area is not shown. An entry is current on its page and
 * the pages beneath it (a file's page under Documents), unless a deeper entry holds the page
 * (Search documents, under Documents): one entry is current at a time.
 */
export function Nav() {
  const t = useT(shellMessages);
  const language = useContext(LanguageContext);
  const access = useAccess();
  const entries: { area: ConsoleArea; to: string; label: string }[] = [
    ...extensions.flatMap((extension) =>
      (extension.pages ?? []).flatMap((page) =>
        page.menu && (page.menu.visible?.(access) ?? true) ? [{ area: page.menu.area, to: `/${page.path}`, label: page.menu.label[language] }] : [],
      ),
    ),
    ...useManifest().resources.flatMap((resource) =>
      resource.menu && resource.operations.list && access.can(`${resource.path}:read`)
        ? [{ area: resource.menu.area, to: `/${resource.path}`, label: resource.menu.label[language] }]
        : [],
    ),
  ];
  const { pathname } = useLocation();
  const holds = (to: string) => pathname === to || pathname.startsWith(`${to}/`);
  const deepest = entries
    .filter((entry) => holds(entry.to))
    .reduce<string | undefined>((best, entry) => (best && best.length >= entry.to.length ? best : entry.to), undefined);
  return (
    <nav aria-label={t('mainNav')} className="app-nav">
      {CONSOLE_AREAS.map((area) => {
        const items = entries.filter((entry) => entry.area === area);
        if (items.length === 0) return null;
        return (
          <section key={area} aria-labelledby={`nav-${area}`}>
            <h2 id={`nav-${area}`}>{t(AREA_LABELS[area])}</h2>
            <ul>
              {items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={deepest !== undefined && deepest !== item.to}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}
