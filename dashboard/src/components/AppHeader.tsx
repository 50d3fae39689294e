/**
 * The owner screens' top (spec 000 §2): a status bar with the user indicator, the Telegram
 * indicator (green when connected, red when not; a click opens the Telegram modal) and the
 * language selector; then the header with
 * the logo (to /main) and the user menu (e-mail's local part, e-mail, "verified user", sign-out).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Toaster, toast } from 'sonner';
import { loadAuthClient, meQuery } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { LanguageSelector } from './LanguageSelector.tsx';
import { TelegramConnect, telegramConfigQuery } from './TelegramConnect.tsx';
import { BrandMark, Button, Dialog, TitleBar, useEscape } from './ui.tsx';
import { WhatsAppStatus } from './WhatsAppConnect.tsx';

export function AppHeader() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(meQuery);
  const { data: bot } = useQuery(myChatbotQuery);
  const localPart = me?.email.split('@')[0] || t('main.fallbackName');
  const [telegramOpen, setTelegramOpen] = useState(false);
  // Green only when Telegram actually receives (spec 000 §2); a paused or failing bot shows red.
  const health = useQuery({
    ...telegramConfigQuery(bot?.id ?? ''),
    enabled: Boolean(bot?.telegram_connected),
  });
  const telegram = Boolean(bot?.telegram_connected) && health.data?.health.state === 'connected';

  async function logout() {
    const { error } = await (await loadAuthClient()).signOut();
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
      <Toaster
        position="top-center"
        visibleToasts={1}
        duration={5000}
        closeButton
        containerAriaLabel={t('app.toasts')}
      />
      <div className="border-b border-slate-200 bg-slate-100 text-xs text-slate-700">
        {/* Issue 29: at 390 px the states wrap onto a second line rather than being cut. */}
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-3 gap-y-1 px-4 py-1.5">
          <div className="flex min-w-0 flex-wrap items-center gap-x-4 gap-y-1">
            <span className="flex items-center gap-1.5">
              <span aria-hidden="true" className="h-2 w-2 rounded-full bg-emerald-500" />
              {t('main.statusUser')}
            </span>
            <button
              type="button"
              onClick={() => setTelegramOpen(true)}
              className="flex items-center gap-1.5 rounded px-1 hover:bg-slate-200"
              data-testid="telegram-status"
              aria-haspopup="dialog"
            >
              <span
                aria-hidden="true"
                className={`h-2 w-2 rounded-full ${telegram ? 'bg-emerald-500' : 'bg-red-500'}`}
              />
              {telegram ? t('main.telegramOn') : t('main.telegramOff')}
            </button>
            {bot ? <WhatsAppStatus /> : null}
          </div>
          <LanguageSelector />
        </div>
      </div>
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-3 px-4 py-3">
          <Link to="/main" className="flex items-center gap-2 font-semibold text-brand-800">
            <BrandMark />
          </Link>
          {/* Issue 26 §6: the operator's screen, for owners with the operator role only. */}
          {me?.operator ? (
            <Link
              to="/admin"
              className="ml-auto rounded-lg px-2 py-1.5 text-sm font-semibold text-brand-700 hover:bg-slate-50"
            >
              {t('admin.menu')}
            </Link>
          ) : null}
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
      {telegramOpen ? (
        <TelegramModal chatbotId={bot?.id ?? null} onClose={() => setTelegramOpen(false)} />
      ) : null}
    </>
  );
}

/**
 * The Telegram modal (spec 000 §2): connected, the open-bot link with Disconnect and Reconfigure;
 * otherwise the connection form. Escape or the close button closes it.
 */
function TelegramModal({ chatbotId, onClose }: { chatbotId: string | null; onClose: () => void }) {
  const { t } = useTranslation();
  useEscape(onClose);
  return (
    <Dialog
      labelledBy="telegram-modal-title"
      panel="max-h-[90dvh] w-full max-w-md space-y-4 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl"
    >
      <TitleBar
        id="telegram-modal-title"
        title={t('telegram.title')}
        closeLabel={t('chat.close')}
        onClose={onClose}
      />
      <TelegramConnect chatbotId={chatbotId} />
    </Dialog>
  );
}
