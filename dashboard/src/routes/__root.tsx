/**
 * The root route: the router context (the query client), the outlet, the owner's in-page alerts
 * (issue 27 §1), and the not-found page.
 */
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../components/ui.tsx';
import { type AppLanguage, isAppLanguage, LANGUAGE_KEY, loadLanguage } from '../i18n/index.ts';
import { meQuery } from '../lib/auth.ts';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Root,
  notFoundComponent: NotFound,
});

/** The owner's live alerts (issue 27 §1), loaded only once someone is signed in. */
const NotificationAlerts = lazy(async () => ({
  default: (await import('../components/NotificationAlerts.tsx')).NotificationAlerts,
}));

/**
 * Every screen, and for a signed-in owner the in-page alerts, mounted once for the whole visit. The
 * session is read from the cache the guarded screens fill (`enabled: false`: public screens such as
 * an IALanding never ask the server for it).
 */
function Root() {
  const me = useQuery({ ...meQuery, enabled: false });
  return (
    <>
      <Outlet />
      {me.data ? (
        <Suspense fallback={null}>
          <NotificationAlerts />
        </Suspense>
      ) : null}
    </>
  );
}

/**
 * The visitor's language for the "not found" page (issue 29): the one chosen in the app, else the
 * browser's first interface language, else Spanish.
 */
function visitorLanguage(): AppLanguage {
  const stored = localStorage.getItem(LANGUAGE_KEY);
  if (isAppLanguage(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const code = tag.slice(0, 2).toLowerCase();
    if (isAppLanguage(code)) return code;
  }
  return 'es';
}

/**
 * A path with no screen (issue 29: the server answers an unknown address with this app and status
 * 404, departing from spec 001 §2's redirect to the home page): a page in the visitor's language
 * that says so, with links to the home page and to the dashboard.
 */
function NotFound() {
  const { i18n } = useTranslation();
  const [lang] = useState(visitorLanguage);
  const [ready, setReady] = useState(false);
  useEffect(() => {
    void loadLanguage(lang).then(() => setReady(true));
  }, [lang]);
  const t = i18n.getFixedT(lang);
  useEffect(() => {
    if (!ready) return;
    document.documentElement.lang = lang;
    document.title = t('notFound.title');
  }, [ready, lang, t]);
  if (!ready) return null;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <Logo />
      <h1 className="text-2xl font-bold tracking-tight">{t('notFound.title')}</h1>
      <p className="max-w-md text-slate-600">{t('notFound.text')}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <a
          href="/"
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
        >
          {t('notFound.site')}
        </a>
        <Link
          to="/main"
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
        >
          {t('notFound.home')}
        </Link>
      </div>
    </main>
  );
}
