/**
 * The WhatsApp connection (spec 000 §2 "Conectar WhatsApp", §4, §5, §8; issue 13), on /configure and
 * as a sub-view of /main, and the WhatsApp indicator of the status bar.
 * - No saved bot: "Primero debes configurar la información de tu Bot en el paso anterior." No days left: the "disconnected for lack of days" panel (the session is kept).
 * - The connect-number card (integration card: yellow warning and a blue button when not connected,
 *   a green check and "Conectado" when it is) opens the linking modal: the QR code live with its
 *   expiry and a retry, a pairing code for a phone number, or the Cloud API form
 *   (components/WhatsAppModals.tsx).
 * - The verify-business card, disabled until a number is connected: Meta's Facebook login flow
 *   (states loading → authenticating → fetching_businesses → fetching_whatsapp → success/error,
 *   reload after 1 s) when the server has a Meta app; the manual form otherwise.
 * - The connection's health (state, mode, last error, last message received), Disconnect (or
 *   "Reintentar" for a number never linked, whose linking expired or could not reach WhatsApp:
 *   issue 28 §3), and the collapsible requirements help with the warning about automated messages
 *   on personal numbers.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { meQuery } from '../lib/auth.ts';
import { myChatbotQuery } from '../lib/bot.ts';
import { healthErrorText } from '../lib/server-codes.ts';
import { postJson, type WhatsAppConfig, type WhatsAppTarget, whatsappConfigQuery } from '../lib/whatsapp.ts';
import { Alert, Button, DangerButton, HealthBox, TitleBar } from './ui.tsx';
import { MetaModal } from './WhatsAppMetaModal.tsx';
import { LinkModal } from './WhatsAppModals.tsx';
import { WhatsAppTemplates } from './WhatsAppTemplates.tsx';

/** The status bar's WhatsApp indicator: green only while WhatsApp is really receiving. */
export function WhatsAppStatus() {
  const { t } = useTranslation();
  const { data: bot } = useQuery(myChatbotQuery);
  const config = useQuery({ ...whatsappConfigQuery(bot?.id ?? ''), enabled: Boolean(bot?.id) });
  const on = config.data?.health.state === 'connected';
  return (
    <Link
      to="/configure"
      hash="whatsapp"
      className="flex min-h-6 min-w-6 items-center gap-1.5 rounded px-1 hover:bg-slate-200"
      data-testid="whatsapp-status"
      title={on ? t('whatsapp.indicatorOn') : t('whatsapp.indicatorOff')}
    >
      <span
        aria-hidden="true"
        className={`h-2 w-2 shrink-0 rounded-full ${on ? 'bg-emerald-500' : 'bg-red-500'}`}
      />
      {/* Issue 29: readable at 390 px too (the status bar wraps instead of hiding the text). */}
      <span>{on ? t('whatsapp.indicatorOn') : t('whatsapp.indicatorOff')}</span>
    </Link>
  );
}

/** The /configure section. */
export function WhatsAppSection({ chatbotId }: { chatbotId: string | null }) {
  const { t } = useTranslation();
  return (
    <section
      id="whatsapp"
      aria-labelledby="whatsapp-title"
      className="mt-6 space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="whatsapp-title" className="text-lg font-semibold">
        {t('whatsapp.title')}
      </h2>
      <p className="text-sm text-slate-600">{t('whatsapp.subtitle')}</p>
      <WhatsAppConnect chatbotId={chatbotId} />
    </section>
  );
}

/** The /main card that opens the "Conectar WhatsApp" sub-view, with its Back action. */
export function WhatsAppSubView({ chatbotId }: { chatbotId: string | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  if (!open)
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="block w-full rounded-2xl border border-slate-200 bg-white p-5 text-left shadow-sm transition hover:border-brand-600 hover:shadow"
        data-testid="whatsapp-card"
      >
        <span className="text-lg font-semibold">{t('whatsapp.title')}</span>
        <span className="mt-1 block text-sm text-slate-600">{t('whatsapp.cardText')}</span>
        <span className="mt-3 inline-block text-sm font-semibold text-brand-700">{t('main.open')} →</span>
      </button>
    );
  return (
    <section
      aria-labelledby="whatsapp-sub-title"
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <TitleBar
        id="whatsapp-sub-title"
        title={t('whatsapp.title')}
        closeLabel={t('whatsapp.back')}
        onClose={() => setOpen(false)}
      />
      <WhatsAppConnect chatbotId={chatbotId} />
    </section>
  );
}

/** The connection itself: the two cards, the health, the help. */
export function WhatsAppConnect({ chatbotId }: { chatbotId: string | null }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data: me } = useQuery(meQuery);
  const config = useQuery({ ...whatsappConfigQuery(chatbotId ?? ''), enabled: Boolean(chatbotId) });
  const [modal, setModal] = useState<'qr' | 'cloud' | 'meta' | null>(null);
  const [busy, setBusy] = useState(false);
  const data = config.data;
  /** What the dialogs work on, once the configuration is loaded. */
  const target: WhatsAppTarget | null = data && chatbotId ? { chatbotId, config: data } : null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['whatsapp-config'] });

  if (!chatbotId) return <Alert tone="info">{t('whatsapp.configureFirst')}</Alert>;
  if (me && !me.paid)
    return (
      <div
        className="space-y-1 rounded-xl border border-red-200 bg-red-50 p-4"
        data-testid="whatsapp-no-days"
      >
        <p className="font-semibold text-red-800">{t('whatsapp.noDaysTitle')}</p>
        <p className="text-sm text-red-800">{t('whatsapp.noDaysText')}</p>
      </div>
    );

  async function disconnect() {
    if (!chatbotId || !window.confirm(t('whatsapp.confirmDisconnect'))) return;
    setBusy(true);
    try {
      await postJson('/api/remove-whatsapp', { userId: me?.id, chatbotId });
      toast.success(t('whatsapp.disconnected'));
      await refresh();
    } catch {
      toast.error(t('whatsapp.disconnectError'));
    } finally {
      setBusy(false);
    }
  }

  const connected = Boolean(data?.connected);
  /** A linked device that never finished linking (in progress, or ended: QR expired, no network). */
  const neverLinked = data?.backend === 'baileys' && (data.status === 'linking' || data.status === 'expired');
  const mode = data?.backend === 'cloud' ? t('whatsapp.modes.cloud') : t('whatsapp.modes.baileys');
  return (
    <div className="space-y-4" data-testid="whatsapp-connect">
      {config.isError ? (
        <Alert tone="error">
          {t('whatsapp.loadError')}: {config.error.message}
        </Alert>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <IntegrationCard
          title={t('whatsapp.number.title')}
          description={t('whatsapp.number.text')}
          done={connected}
          action={t('whatsapp.number.action')}
          onAction={() => setModal(connected ? 'cloud' : 'qr')}
          confirmation={
            connected && data?.whatsapp_number
              ? t('whatsapp.number.confirm', { number: data.whatsapp_number, mode })
              : undefined
          }
          testId="whatsapp-number-card"
        />
        <IntegrationCard
          title={t('whatsapp.verify.title')}
          description={connected ? t('whatsapp.verify.text') : t('whatsapp.verify.disabled')}
          done={data?.backend === 'cloud'}
          disabled={!connected}
          action={t('whatsapp.verify.action')}
          onAction={() => setModal(data?.meta.appId ? 'meta' : 'cloud')}
          confirmation={
            data?.backend === 'cloud'
              ? `${t('whatsapp.verify.done', { id: data.cloud?.businessAccountId ?? '' })} · ${t('whatsapp.verify.pending')}`
              : undefined
          }
          testId="whatsapp-verify-card"
        />
      </div>
      {data && data.status !== null ? <Health config={data} /> : null}
      {/* Issue 28: message templates for a Cloud API number (and what waits for the 24-hour window). */}
      {data?.backend === 'cloud' && connected ? <WhatsAppTemplates chatbotId={chatbotId} /> : null}
      {neverLinked ? (
        // Issue 28 §3: nothing to disconnect for a number never linked; the way on is to link again.
        <Button className="sm:w-auto" onClick={() => setModal('qr')} data-testid="whatsapp-retry">
          {t('whatsapp.link.retry')}
        </Button>
      ) : data?.status ? (
        <DangerButton
          look="outline"
          onClick={() => void disconnect()}
          busy={busy}
          label={t('whatsapp.disconnect')}
        />
      ) : null}
      <details className="text-sm text-slate-700" data-testid="whatsapp-help">
        <summary className="cursor-pointer font-medium text-brand-800">{t('whatsapp.help.title')}</summary>
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {(['qr1', 'qr2', 'cloud1', 'cloud2'] as const).map((key) => (
            <li key={key}>{t(`whatsapp.help.${key}`)}</li>
          ))}
        </ul>
        <p className="mt-2 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-900">
          {t('whatsapp.help.risk')}
        </p>
      </details>
      {(modal === 'qr' || modal === 'cloud') && target ? (
        <LinkModal
          {...target}
          initialTab={modal}
          onClose={() => {
            setModal(null);
            void refresh();
          }}
        />
      ) : null}
      {modal === 'meta' && target ? <MetaModal {...target} onClose={() => setModal(null)} /> : null}
    </div>
  );
}

/**
 * The reusable integration card (spec 000 §2): title, description, a completed icon, the action
 * button. Not connected: a yellow warning icon and a blue button; connected: a green check, a
 * green "Conectado" button and the confirmation text; dimmed when disabled.
 */
function IntegrationCard(props: {
  title: string;
  description: string;
  done: boolean;
  disabled?: boolean;
  action: string;
  onAction: () => void;
  confirmation?: string | undefined;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={`flex flex-col justify-between gap-3 rounded-xl border p-4 ${props.disabled ? 'border-slate-200 opacity-60' : 'border-slate-200'}`}
      data-testid={props.testId}
      aria-disabled={props.disabled ? 'true' : undefined}
    >
      <div className="flex items-start gap-3">
        <StateIcon done={props.done} />
        <div>
          <h3 className="font-semibold">{props.title}</h3>
          <p className="text-sm text-slate-600">{props.description}</p>
          {props.done && props.confirmation ? (
            <p className="mt-1 text-sm font-medium text-emerald-800">{props.confirmation}</p>
          ) : null}
        </div>
      </div>
      {props.done ? (
        <button
          type="button"
          onClick={props.onAction}
          disabled={props.disabled}
          className="rounded-lg bg-emerald-700 px-4 py-2 text-sm font-semibold text-white"
        >
          {t('whatsapp.number.done')}
        </button>
      ) : (
        <button
          type="button"
          onClick={props.onAction}
          disabled={props.disabled}
          className="rounded-lg bg-blue-700 px-4 py-2 text-sm font-semibold text-white hover:bg-blue-800 disabled:cursor-not-allowed"
        >
          {props.action}
        </button>
      )}
    </div>
  );
}

function StateIcon({ done }: { done: boolean }): ReactNode {
  return done ? (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 shrink-0 fill-emerald-600">
      <path d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm-1.2 14.2-4-4 1.4-1.4 2.6 2.6 5.6-5.6 1.4 1.4-7 7Z" />
    </svg>
  ) : (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6 shrink-0 fill-amber-500">
      <path d="M12 2 1 21h22L12 2Zm1 15h-2v-2h2v2Zm0-4h-2V9h2v4Z" />
    </svg>
  );
}

/** The connection's health: state, mode, last message received, the last error. */
function Health({ config }: { config: WhatsAppConfig }) {
  const { t, i18n } = useTranslation();
  const { health } = config;
  const when = health.lastUpdateAt
    ? new Date(health.lastUpdateAt).toLocaleString(i18n.language, { dateStyle: 'short', timeStyle: 'short' })
    : null;
  return (
    <HealthBox
      ok={health.state === 'connected'}
      testId="whatsapp-health"
      title={`${t(`whatsapp.state.${health.state}`)}${config.whatsapp_number ? ` · +${config.whatsapp_number}` : ''}`}
      error={
        config.linkFailure
          ? t('whatsapp.health.lastError', { error: t(`whatsapp.linkFailure.${config.linkFailure}`) })
          : health.lastError
            ? t('whatsapp.health.lastError', { error: healthErrorText(t, (k) => i18n.exists(k), health) })
            : null
      }
    >
      <p className="text-xs text-slate-700">
        {t(health.mode === 'cloud-api' ? 'whatsapp.modes.cloud' : 'whatsapp.modes.baileys')} ·{' '}
        {when ? t('whatsapp.health.lastUpdate', { time: when }) : t('whatsapp.health.never')}
      </p>
    </HealthBox>
  );
}
