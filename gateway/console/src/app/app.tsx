/**
 * The console: the manifest first (every resource and menu comes from it), then Refine with the
 * platform's data, auth, access-control and i18n providers, and the routes under /console/: the
 * login and the extensions' public pages outside the session, everything else inside the layout.
 */
import { createContext, lazy, Suspense, useContext, useEffect, useMemo, useState } from 'react';
import { createBrowserRouter, Navigate, Route, RouterProvider, Routes } from 'react-router';
import { Authenticated, Refine, type I18nProvider, type ResourceProps } from '@refinedev/core';
import { CatchAllNavigate } from '@refinedev/react-router';
import { QueryClient } from '@tanstack/react-query';
import type { ConsoleManifest } from '@platform/contracts/console/manifest.ts';
import { LanguageContext, useT } from '../shell/i18n.tsx';
import { currentLanguage, storeLanguage, type Language } from '../shell/language.ts';
import { ErrorAlert } from '../ui/error-alert.tsx';
import { ExtensionsContext } from '../extensions/context.ts';
import { CreateRoute, EditRoute, ListRoute, RecordRoute } from '../resources/resource-routes.tsx';
import { pluralLabel } from '../resources/labels.ts';
import { dataProvider } from '../resources/data-provider.ts';
import { loadManifest, ManifestContext } from '../resources/manifest.tsx';
import { accessControlFor } from './access-control.ts';
import { authProviderFor } from './auth-provider.ts';
import { extensions } from './extensions.ts';
import { i18nProviderFor } from './i18n-provider.ts';
import { Layout } from './layout.tsx';
import { LoginPage } from './login-page.tsx';
import { shellMessages } from './messages.ts';
import { isPublicPath } from './public-path.ts';
import { consoleRouterProvider } from './router-provider.ts';
import { meQuery } from './session.ts';
import { SessionShell } from './session-shell.tsx';
import { NotFoundPage } from './simple-pages.tsx';

const ChangePasswordPage = lazy(() => import('./change-password-page.tsx'));

/** The console's base path: the gateway serves it at /console/ (vite.config.ts `base`). */
export const BASENAME = '/console';

const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });
const authProvider = authProviderFor(queryClient);
const accessControlProvider = accessControlFor(queryClient);

// The logged-in user does not depend on the manifest: asked for with it, not after it
// (docs/adr/0099-the-console-s-speed-fewer-hooks.md); the auth provider's check finds it cached.
const path = window.location.pathname;
if (path.startsWith(BASENAME) && !isPublicPath(path.slice(BASENAME.length) || '/')) void queryClient.prefetchQuery(meQuery);

/** Refine's view of the manifest's resources: their routes, for its hooks and navigation. */
function refineResources(manifest: ConsoleManifest): ResourceProps[] {
  return manifest.resources.map((resource) => ({
    name: resource.path,
    list: `/${resource.path}`,
    show: `/${resource.path}/:id`,
    create: `/${resource.path}/new`,
    edit: `/${resource.path}/:id/edit`,
    meta: { label: pluralLabel(resource, 'en') },
  }));
}

function Loading() {
  const t = useT(shellMessages);
  return <p>{t('loading')}</p>;
}

/** The page after login when no other was asked for: the extension page that declares itself home (the dashboard). */
const HOME = extensions.flatMap((extension) => extension.pages ?? []).find((page) => page.home);

function ConsoleRoutes() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      {extensions
        .flatMap((extension) => extension.publicPages ?? [])
        .map((page) => (
          <Route key={page.path} path={`/${page.path}`} element={page.element} />
        ))}
      <Route
        element={
          <Authenticated key="console" fallback={<CatchAllNavigate to="/login" />} loading={<Loading />}>
            <SessionShell>
              <Layout />
            </SessionShell>
          </Authenticated>
        }
      >
        <Route index element={HOME ? <Navigate to={`/${HOME.path}`} replace /> : <NotFoundPage />} />
        <Route
          path="/change-password"
          element={
            <Suspense fallback={<Loading />}>
              <ChangePasswordPage />
            </Suspense>
          }
        />
        {extensions
          .flatMap((extension) => extension.pages ?? [])
          .map((page) => (
            <Route key={page.path} path={`/${page.path}`} element={<Suspense fallback={<Loading />}>{page.element}</Suspense>} />
          ))}
        <Route path="/:resource" element={<ListRoute />} />
        <Route path="/:resource/new" element={<CreateRoute />} />
        <Route path="/:resource/:key" element={<RecordRoute />} />
        <Route path="/:resource/:key/edit" element={<EditRoute />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}

function ManifestFailed({ error, retry }: { error: unknown; retry: () => void }) {
  const t = useT(shellMessages);
  return (
    <main id="main">
      <h1>{t('console')}</h1>
      <ErrorAlert error={new Error(t('manifestFailed', { message: error instanceof Error ? error.message : String(error) }))} />
      <button type="button" onClick={retry}>
        {t('retry')}
      </button>
    </main>
  );
}

/** What Refine is given that changes with the language and the manifest, read below the router. */
const RefineSetup = createContext<{ i18nProvider: I18nProvider; resources: ResourceProps[] }>({ i18nProvider: {} as I18nProvider, resources: [] });

/** Refine and the routes, inside the router (a data router: a form can block leaving it, resources/leave-guard.tsx). */
function RefineRoot() {
  const { i18nProvider, resources } = useContext(RefineSetup);
  return (
    <Refine
      dataProvider={dataProvider}
      authProvider={authProvider}
      accessControlProvider={accessControlProvider}
      i18nProvider={i18nProvider}
      routerProvider={consoleRouterProvider}
      resources={resources}
      options={{ disableTelemetry: true, reactQuery: { clientConfig: queryClient }, syncWithLocation: false, warnWhenUnsavedChanges: false }}
    >
      <ConsoleRoutes />
    </Refine>
  );
}

const router = createBrowserRouter([{ path: '*', Component: RefineRoot }], { basename: BASENAME });

/** The whole console: its language, the manifest, then Refine and the routes. */
export function App() {
  const [language, setLanguage] = useState<Language>(currentLanguage);
  const [manifest, setManifest] = useState<ConsoleManifest | null>(null);
  const [failure, setFailure] = useState<unknown>(null);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    storeLanguage(language);
  }, [language]);
  useEffect(() => {
    loadManifest().then(setManifest, setFailure);
  }, [attempt]);
  const i18nProvider = useMemo(() => i18nProviderFor(language, setLanguage), [language]);
  const resources = useMemo(() => (manifest ? refineResources(manifest) : []), [manifest]);
  const setup = useMemo(() => ({ i18nProvider, resources }), [i18nProvider, resources]);

  return (
    <LanguageContext.Provider value={language}>
      {manifest ? (
        <ManifestContext.Provider value={manifest}>
          <ExtensionsContext.Provider value={extensions}>
            <RefineSetup.Provider value={setup}>
              <RouterProvider router={router} />
            </RefineSetup.Provider>
          </ExtensionsContext.Provider>
        </ManifestContext.Provider>
      ) : failure ? (
        <ManifestFailed
          error={failure}
          retry={() => {
            setFailure(null);
            setAttempt((count) => count + 1);
          }}
        />
      ) : (
        <Loading />
      )}
    </LanguageContext.Provider>
  );
}
