/** The root route: the router context (the query client), the outlet, and the not-found page. */
import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Logo } from '../components/ui.tsx';

export const Route = createRootRouteWithContext<{ queryClient: QueryClient }>()({
  component: Outlet,
  notFoundComponent: NotFound,
});

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
