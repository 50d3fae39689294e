/**
 * The Telegram connection (spec 000 §2, §4, §5, §8; spec 001 §4; issue 5), on /configure and in the
 * Telegram modal of the status bar.
 * - No saved bot: the hint "Primero guarda la configuración del chatbot" and disabled buttons.
 * - No days left (and no paid plan): the "bot disconnected for lack of days" panel replaces the form;
 *   the token and username stay stored and the bot reconnects on renewal.
 * - Not connected: token and username (without @), both required; errors read "Error al conectar
 *   Telegram: …" with the server's reason.
 * - Connected: the open-bot link, the connection's health (mode, state, last error, updates waiting at
 *   Telegram), Disconnect (after confirmation) and Reconfigure.
 * - A warning when 10 days or fewer remain without a subscription.
 */
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { ConnectionHealth } from '../../../engine/registry/index.ts';
import { channelConfig, sendJson } from '../lib/api.ts';
import { meQuery } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { healthErrorText } from '../lib/server-codes.ts';
import { Alert, Button, bound, DangerButton, Field, HealthBox } from './ui.tsx';

/** `GET /api/get-telegram-config` (adapters/telegram/routes.ts). */
export interface TelegramConfig {
  telegramUsername: string | null;
  connected: boolean;
  health: ConnectionHealth;
}

/** Spec 001 §4: the disconnect warning shows at 10 days or fewer without a subscription. */
export const WARNING_DAYS = 10;

/** The Telegram configuration and health of a bot; refreshed every 30 s while shown. */
export const telegramConfigQuery = (chatbotId: string) =>
  queryOptions({
    ...channelConfig<TelegramConfig>('telegram', chatbotId),
    staleTime: 15_000,
    refetchInterval: 30_000,
  });

export function TelegramConnect({ chatbotId, toastMs }: { chatbotId: string | null; toastMs?: number }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(meQuery);
  const config = useQuery({ ...telegramConfigQuery(chatbotId ?? ''), enabled: Boolean(chatbotId) });
  const [token, setToken] = useState('');
  const [username, setUsername] = useState('');
  const [busy, setBusy] = useState(false);
  const [reconfiguring, setReconfiguring] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toastOptions = toastMs ? { duration: toastMs } : {};

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: ['telegram-config'] }),
      queryClient.invalidateQueries({ queryKey: myChatbotQuery.queryKey }),
    ]);
  };

  async function connect(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (!chatbotId || !me) {
      setError(t('telegram.missingData'));
      return;
    }
    if (!token.trim() || !username.trim()) {
      setError(t('telegram.required'));
      return;
    }
    setBusy(true);
    try {
      const res = await sendJson('/api/verify-telegram', {
        telegramToken: token.trim(),
        telegramUsername: username.trim().replace(/^@/, ''),
        userId: me.id,
        chatbotId,
      });
      const body = (await res.json()) as { telegramUsername?: string; error?: string };
      if (!res.ok) throw new Error(body.error ?? t('telegram.verifyFailed'));
      setToken('');
      setReconfiguring(false);
      toast.success(t('telegram.connected', { username: body.telegramUsername }), toastOptions);
      await refresh();
    } catch (err) {
      setError(t('telegram.connectError', { reason: (err as Error).message }));
    } finally {
      setBusy(false);
    }
  }

  async function disconnect() {
    if (!chatbotId || !window.confirm(t('telegram.confirmDisconnect'))) return;
    setBusy(true);
    try {
      const res = await sendJson('/api/remove-telegram', { userId: me?.id, chatbotId });
      if (!res.ok) throw new Error();
      toast.success(t('telegram.disconnected'), toastOptions);
      await refresh();
    } catch {
      toast.error(t('telegram.disconnectError'), toastOptions);
    } finally {
      setBusy(false);
    }
  }

  const days = me?.daysRemaining ?? 0;
  const subscribed = Boolean(me?.subscribed);
  const paused = Boolean(me) && !me?.paid;
  const data = config.data;
  const showForm = !data?.connected || reconfiguring;

  return (
    <div className="space-y-4" data-testid="telegram-connect">
      {!chatbotId ? <Alert tone="info">{t('telegram.saveFirst')}</Alert> : null}
      {config.isError ? (
        <Alert tone="error">{t('telegram.configError', { reason: config.error.message })}</Alert>
      ) : null}
      {!paused && me && !subscribed && days <= WARNING_DAYS ? (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {t('telegram.daysWarning', { count: days })}{' '}
          <a href="/gestion" className="font-semibold underline hover:no-underline">
            {t('gestion.renewLink')}
          </a>
        </p>
      ) : null}
      {paused ? (
        <div
          className="space-y-1 rounded-xl border border-red-200 bg-red-50 p-4"
          data-testid="telegram-no-days"
        >
          <p className="font-semibold text-red-800">{t('telegram.noDaysTitle')}</p>
          <p className="text-sm text-red-800">
            {data?.telegramUsername
              ? t('telegram.noDaysKept', { username: data.telegramUsername })
              : t('telegram.noDaysText')}
          </p>
          <a href="/gestion" className="text-sm font-semibold text-red-800 underline hover:no-underline">
            {t('gestion.renewLink')}
          </a>
        </div>
      ) : null}
      {!paused && data?.connected && !reconfiguring ? (
        <div className="space-y-3">
          <Health config={data} />
          <div className="flex flex-wrap gap-2">
            <a
              href={`https://t.me/${data.telegramUsername}`}
              target="_blank"
              rel="noopener"
              className="inline-flex items-center rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800"
            >
              {t('telegram.openBot', { username: data.telegramUsername })}
            </a>
            <button
              type="button"
              onClick={() => {
                setUsername(data.telegramUsername ?? '');
                setReconfiguring(true);
              }}
              disabled={busy}
              className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-medium hover:bg-slate-50"
            >
              {t('telegram.reconfigure')}
            </button>
            <DangerButton
              look="outline"
              onClick={() => void disconnect()}
              busy={busy}
              label={t('telegram.disconnect')}
            />
          </div>
        </div>
      ) : null}
      {!paused && showForm ? (
        <form onSubmit={(e) => void connect(e)} className="space-y-3" noValidate>
          <Field
            label={t('telegram.token')}
            hint={t('telegram.tokenHint')}
            type="password"
            autoComplete="off"
            spellCheck={false}
            {...bound(token, setToken)}
            disabled={!chatbotId || busy}
          />
          <Field
            label={t('telegram.username')}
            hint={t('telegram.usernameHint')}
            autoComplete="off"
            spellCheck={false}
            value={username}
            onChange={(e) => setUsername(e.target.value.replace(/^@/, ''))}
            disabled={!chatbotId || busy}
          />
          {error ? <Alert tone="error">{error}</Alert> : null}
          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={!chatbotId || busy} className="sm:w-auto">
              {busy ? t('telegram.connecting') : t('telegram.connect')}
            </Button>
            {reconfiguring ? (
              <Button
                type="button"
                variant="secondary"
                className="sm:w-auto"
                onClick={() => setReconfiguring(false)}
              >
                {t('files.cancel')}
              </Button>
            ) : null}
          </div>
          <details className="text-sm text-slate-600">
            <summary className="cursor-pointer font-medium text-brand-800">{t('telegram.helpTitle')}</summary>
            <ol className="mt-2 list-decimal space-y-1 pl-5">
              {(['help1', 'help2', 'help3'] as const).map((key) => (
                <li key={key}>{t(`telegram.${key}`)}</li>
              ))}
            </ol>
          </details>
        </form>
      ) : null}
    </div>
  );
}

/** The connection's health: state, mode, the last error and the updates waiting at Telegram. */
function Health({ config }: { config: TelegramConfig }) {
  const { t, i18n } = useTranslation();
  const { health } = config;
  const lastError = healthErrorText(t, (k) => i18n.exists(k), health);
  return (
    <HealthBox
      ok={health.state === 'connected'}
      testId="telegram-health"
      title={`${t(`telegram.state.${health.state}`)} · @${config.telegramUsername}`}
      error={lastError ? t('telegram.lastError', { error: lastError }) : null}
    >
      <p className="text-xs text-slate-600">
        {t(health.mode === 'webhook' ? 'telegram.modeWebhook' : 'telegram.modePolling')}
        {health.pendingUpdates ? ` · ${t('telegram.pending', { count: health.pendingUpdates })}` : ''}
      </p>
    </HealthBox>
  );
}
