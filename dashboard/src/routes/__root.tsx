/**
 * The root route: the router context (the query client), the outlet, the owner's in-page alerts
 * (issue 27 §1), and the not-found page.
 */
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../components/ui.tsx';
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
 * A path with no screen, reached by a link inside the app (the server sends a typed-in unknown path
 * to the home page, spec 001 §2): a page that says so with a link to the dashboard.
 */
function NotFound() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <Logo />
      <h1 className="text-2xl font-bold tracking-tight">{t('notFound.title')}</h1>
      <p className="max-w-md text-slate-600">{t('notFound.text')}</p>
      <Link
        to="/main"
        className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
      >
        {t('notFound.home')}
      </Link>
    </main>
  );
}
