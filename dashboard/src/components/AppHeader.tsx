/**
 * The owner screens' top (spec 000 §2): a status bar with the user indicator, the Telegram
 * indicator (green when connected, red when not) and the language selector; then the header with
 * the logo (to /main) and the user menu (e-mail's local part, e-mail, "verified user", sign-out).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { Toaster, toast } from 'sonner';
import { authClient, meQuery } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { LanguageSelector } from './LanguageSelector.tsx';
import { Button, Logo } from './ui.tsx';

export function AppHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(meQuery);
  const { data: bot } = useQuery(myChatbotQuery);
  const localPart = me?.email.split('@')[0] || t('main.fallbackName');
  const telegram = Boolean(bot?.telegram_connected);

  async function logout() {
    const { error } = await authClient.signOut();
    if (error) {
      toast.error(t('main.logoutError'));
      return;
    }
    queryClient.setQueryData(meQuery.queryKey, null);
    queryClient.removeQueries({ queryKey: myChatbotQuery.queryKey });
    await navigate({ to: '/login' });
  }

  return (
    <>
      {/* One toast at a time, 5 s by default (spec 000 §9); the configuration screens ask for 2 s. The
          sign-in screens show messages inline, so the toaster lives with the owner screens only. */}
      <Toaster position="top-center" visibleToasts={1} duration={5000} closeButton />
      <div className="border-b border-slate-200 bg-slate-100 text-xs text-slate-700">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-1.5">
          <div className="flex items-center gap-4">
            <span className="flex items-center gap-1.5">
              <span aria-hidden="true" className="h-2 w-2 rounded-full bg-emerald-500" />
              {t('main.statusUser')}
            </span>
            <span className="flex items-center gap-1.5" data-testid="telegram-status">
              <span
                aria-hidden="true"
                className={`h-2 w-2 rounded-full ${telegram ? 'bg-emerald-500' : 'bg-red-500'}`}
              />
              {telegram ? t('main.telegramOn') : t('main.telegramOff')}
            </span>
          </div>
          <LanguageSelector />
        </div>
      </div>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
          <Link to="/main" className="flex items-center gap-2 font-semibold text-brand-800">
            <Logo />
            <span className="text-lg">{t('app.name')}</span>
          </Link>
          <details className="relative">
            <summary className="cursor-pointer list-none rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-medium text-slate-800">
              {localPart}
            </summary>
            <div className="absolute right-0 z-20 mt-2 w-64 space-y-2 rounded-xl border border-slate-200 bg-white p-4 shadow-lg">
              <p className="truncate text-sm text-slate-700">{me?.email}</p>
              {me?.emailVerified ? (
                <p className="text-xs font-medium text-emerald-700">{t('main.verified')}</p>
              ) : null}
              <Button variant="secondary" onClick={() => void logout()}>
                {t('main.logout')}
              </Button>
            </div>
          </details>
        </div>
      </header>
    </>
  );
}
