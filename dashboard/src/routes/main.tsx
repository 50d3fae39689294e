/**
 * `/main` (spec 000 §2): guarded; a visitor without a session goes to /login and comes back after
 * signing in. This first version shows the owner, the days remaining and sign-out; the dashboard
 * issue fills in the cards, the test chat and the rest.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createFileRoute, redirect, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelector } from '../components/LanguageSelector.tsx';
import { Alert, Button, Logo } from '../components/ui.tsx';
import { authClient, meQuery, NEEDS_PASSWORD_UPDATE } from '../lib/auth.ts';

export const Route = createFileRoute('/main')({
  beforeLoad: async ({ context, location }) => {
    const me = await context.queryClient.ensureQueryData(meQuery);
    if (!me) throw redirect({ to: '/login', search: { redirect: location.href } });
    if (localStorage.getItem(NEEDS_PASSWORD_UPDATE) === 'true') {
      localStorage.removeItem(NEEDS_PASSWORD_UPDATE);
      throw redirect({ to: '/update-password' });
    }
  },
  component: Main,
});

function Main() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(meQuery);
  const bot = useQuery({
    queryKey: ['my-chatbot'],
    queryFn: async (): Promise<{ id: string; business_name: string } | null> => {
      const res = await fetch('/api/my-chatbot');
      if (res.status === 404) return null;
      if (!res.ok) throw new Error(`GET /api/my-chatbot ${res.status}`);
      return (await res.json()) as { id: string; business_name: string };
    },
  });
  const [error, setError] = useState<string | null>(null);
  if (!me) return null;
  const localPart = me.email.split('@')[0] || t('main.fallbackName');

  async function logout() {
    const { error: failure } = await authClient.signOut();
    if (failure) return setError(t('main.logoutError'));
    queryClient.setQueryData(meQuery.queryKey, null);
    queryClient.removeQueries({ queryKey: ['my-chatbot'] });
    await navigate({ to: '/login' });
  }

  return (
    <div className="min-h-dvh">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
          <a href="/main" className="flex items-center gap-2 font-semibold text-brand-800">
            <Logo />
            <span className="text-lg">{t('app.name')}</span>
          </a>
          <div className="flex items-center gap-3">
            <LanguageSelector />
            <details className="relative">
              <summary className="cursor-pointer list-none rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800">
                {localPart}
              </summary>
              <div className="absolute right-0 z-10 mt-2 w-64 space-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-lg">
                <p className="truncate text-sm text-slate-700">{me.email}</p>
                {me.emailVerified ? (
                  <p className="text-xs font-medium text-emerald-700">{t('main.verified')}</p>
                ) : null}
                <Button variant="secondary" onClick={() => void logout()}>
                  {t('main.logout')}
                </Button>
              </div>
            </details>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-5xl space-y-6 px-4 py-8">
        {error ? <Alert tone="error">{error}</Alert> : null}
        <h1 className="text-3xl font-bold tracking-tight">{t('main.greeting', { name: localPart })}</h1>
        <div className="inline-flex items-baseline gap-2 rounded-xl border border-slate-200 bg-white px-4 py-3">
          <span className="text-sm text-slate-600">
            {me.daysRemaining > 0 ? t('main.daysRemaining') : t('main.noDays')}
          </span>
          <span className="text-2xl font-semibold text-brand-700" data-testid="days-remaining">
            {me.daysRemaining}
          </span>
        </div>
        {bot.isSuccess ? (
          <p className="text-slate-700" data-testid="my-bot">
            {bot.data ? (
              <>
                {t('main.yourBot')}: <strong>{bot.data.business_name}</strong>
              </>
            ) : (
              t('main.noBot')
            )}
          </p>
        ) : null}
        <p className="text-slate-600">{t('main.comingSoon')}</p>
      </main>
    </div>
  );
}
