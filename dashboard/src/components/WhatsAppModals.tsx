/**
 * The WhatsApp connection's modals (spec 000 §2, §4; issue 13):
 * - {@link LinkModal}: the QR code live (it rotates; the expiry counts down; "Reintentar" when it
 *   ran out, or WhatsApp could not be reached: issue 28 §3), a pairing code for a phone number as
 *   the alternative, and the Cloud API tab (the manual form with the webhook address and verify
 *   token to copy into Meta, and a warning when Meta cannot reach this server: WhatsAppWebhookPanel).
 *   Cancel stops a linking in progress.
 * - MetaModal (WhatsAppMetaModal.tsx): the Facebook login flow.
 */
import { useQueryClient } from '@tanstack/react-query';
import { QRCodeSVG } from 'qrcode.react';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { postJson, type WhatsAppConfig, type WhatsAppTarget } from '../lib/whatsapp.ts';
import { Alert, Button, bound, Dialog, Field, useEscape } from './ui.tsx';
import { CloudWebhookPanel } from './WhatsAppWebhookPanel.tsx';

/** Spec 000 §9: reload after a WhatsApp connection, ms. */
export const RELOAD_AFTER_MS = 1000;

/** The WhatsApp modals' frame: a titled dialog that Escape closes. */
export function Modal({
  title,
  children,
  onClose,
}: {
  title: string;
  children: ReactNode;
  onClose: () => void;
}) {
  useEscape(onClose);
  return (
    <Dialog
      labelledBy="whatsapp-modal-title"
      panel="max-h-[90dvh] w-full max-w-md space-y-4 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl"
    >
      <h2 id="whatsapp-modal-title" className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </Dialog>
  );
}

/** Seconds left until an ISO time, refreshed every second. */
function useSecondsLeft(iso: string | null | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  if (!iso) return null;
  return Math.max(0, Math.round((new Date(iso).getTime() - now) / 1000));
}

/** The linking modal: QR code or pairing code, or the Cloud API form. */
export function LinkModal({
  chatbotId,
  config,
  initialTab,
  onClose,
}: WhatsAppTarget & { initialTab: 'qr' | 'cloud'; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [tab, setTab] = useState(initialTab);
  const [error, setError] = useState<string | null>(null);
  const started = useRef(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['whatsapp-config'] });

  const request = async (phoneNumber?: string) => {
    setError(null);
    try {
      await postJson('/api/request-whatsapp-number', { chatbotId, ...(phoneNumber ? { phoneNumber } : {}) });
      await refresh();
    } catch (err) {
      setError(`${t('whatsapp.link.requestError')}: ${(err as Error).message}`);
    }
  };
  // Opening the QR tab starts linking (unless a number is connected or linking is under way).
  // biome-ignore lint/correctness/useExhaustiveDependencies: linking starts once per opening of the tab
  useEffect(() => {
    if (tab !== 'qr' || started.current || config.connected || config.status === 'linking') return;
    started.current = true;
    void request();
  }, [tab]);

  const cancel = async () => {
    if (config.status === 'linking') await postJson('/api/remove-whatsapp', { chatbotId }).catch(() => {});
    onClose();
  };

  return (
    <Modal title={t('whatsapp.link.title')} onClose={() => void cancel()}>
      <div role="tablist" className="flex gap-2">
        {(['qr', 'cloud'] as const).map((name) => (
          <button
            key={name}
            type="button"
            role="tab"
            aria-selected={tab === name}
            onClick={() => setTab(name)}
            className={`rounded-lg px-3 py-1.5 text-sm font-medium ${tab === name ? 'bg-brand-700 text-white' : 'border border-slate-300 text-slate-800'}`}
          >
            {name === 'qr' ? t('whatsapp.link.tabQr') : t('whatsapp.link.tabCloud')}
          </button>
        ))}
      </div>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {tab === 'qr' ? (
        <QrPanel config={config} onRetry={() => void request()} onPairing={(phone) => request(phone)} />
      ) : (
        <CloudForm chatbotId={chatbotId} config={config} onDone={onClose} />
      )}
      <div className="flex justify-end">
        <Button variant="secondary" className="sm:w-auto" onClick={() => void cancel()}>
          {config.connected ? t('whatsapp.close') : t('whatsapp.cancel')}
        </Button>
      </div>
    </Modal>
  );
}

function QrPanel({
  config,
  onRetry,
  onPairing,
}: {
  config: WhatsAppConfig;
  onRetry: () => void;
  onPairing: (phone: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const left = useSecondsLeft(config.linking?.qrExpiresAt);
  const [pairing, setPairing] = useState(false);
  const [phone, setPhone] = useState('');
  const [asking, setAsking] = useState(false);
  if (config.connected)
    return (
      <Alert tone="success">
        {t('whatsapp.link.linked')} +{config.whatsapp_number}
      </Alert>
    );
  if (config.status === 'expired')
    return (
      <div className="space-y-3" data-testid="whatsapp-expired">
        <p className="text-sm font-medium text-red-800">{t('whatsapp.link.assignFailed')}</p>
        {/* Issue 28 §3: "QR expired" only when codes were shown and ran out; else the network. */}
        <p className="text-sm text-slate-700" data-failure={config.linkFailure ?? 'qrExpired'}>
          {config.linkFailure === 'network' ? t('whatsapp.linkFailure.network') : t('whatsapp.link.expired')}
        </p>
        <Button onClick={onRetry}>{t('whatsapp.link.retry')}</Button>
      </div>
    );
  const qr = config.linking?.qr;
  return (
    <div className="space-y-3">
      <p className="text-sm text-slate-700">{t('whatsapp.link.steps')}</p>
      <div className="flex min-h-60 flex-col items-center justify-center gap-2" data-testid="whatsapp-qr">
        {qr ? (
          <>
            <QRCodeSVG value={qr} size={224} marginSize={2} title={t('whatsapp.link.qrAlt')} />
            <p className="text-xs text-slate-600" aria-live="polite">
              {left ? t('whatsapp.link.expiresIn', { seconds: left }) : t('whatsapp.link.renewing')}
            </p>
          </>
        ) : (
          <p className="text-sm text-slate-600" aria-live="polite">
            {t('whatsapp.link.waiting')}
          </p>
        )}
      </div>
      {config.linking?.pairingCode ? (
        <div
          className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm"
          data-testid="whatsapp-pairing"
        >
          <p>{t('whatsapp.link.pairingCode')}</p>
          <p className="mt-1 font-mono text-2xl font-bold tracking-widest">
            {config.linking.pairingCode.replace(/^(.{4})/, '$1-')}
          </p>
        </div>
      ) : null}
      {pairing ? (
        <form
          className="space-y-2"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            setAsking(true);
            void onPairing(phone.trim()).finally(() => setAsking(false));
          }}
        >
          <Field
            label={t('whatsapp.link.pairingPhone')}
            hint={t('whatsapp.link.pairingHint')}
            inputMode="tel"
            autoComplete="tel"
            {...bound(phone, setPhone)}
          />
          <Button type="submit" disabled={asking || !phone.trim()}>
            {t('whatsapp.link.pairingAsk')}
          </Button>
        </form>
      ) : (
        <button
          type="button"
          className="text-sm font-medium text-brand-800 underline"
          onClick={() => setPairing(true)}
        >
          {t('whatsapp.link.pairingToggle')}
        </button>
      )}
    </div>
  );
}

/** The Cloud API manual form, with what to enter at Meta. */
function CloudForm({ chatbotId, config, onDone }: WhatsAppTarget & { onDone: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form, setForm] = useState({
    phoneNumberId: '',
    businessAccountId: '',
    accessToken: '',
    appSecret: '',
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = (k: keyof typeof form) => (e: { target: { value: string } }) =>
    setForm({ ...form, [k]: e.target.value });
  /** A secret's field: `whatsapp.cloud.<k>` and its hint, hidden while typed. */
  const secret = (k: 'accessToken' | 'appSecret') => ({
    label: t(`whatsapp.cloud.${k}`),
    hint: t(`whatsapp.cloud.${k}Hint`),
    type: 'password',
    autoComplete: 'off',
    value: form[k],
    onChange: set(k),
  });

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await postJson<WhatsAppConfig>('/api/connect-whatsapp-cloud', {
        chatbotId,
        phoneNumberId: form.phoneNumberId.trim(),
        businessAccountId: form.businessAccountId.trim(),
        accessToken: form.accessToken.trim(),
        ...(form.appSecret.trim() ? { appSecret: form.appSecret.trim() } : {}),
      });
      toast.success(t('whatsapp.cloud.connected', { number: res.whatsapp_number ?? '' }));
      await queryClient.invalidateQueries({ queryKey: ['whatsapp-config'] });
      onDone();
    } catch (err) {
      setError(t('whatsapp.cloud.error', { reason: (err as Error).message }));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-3" onSubmit={(e) => void submit(e)} noValidate data-testid="whatsapp-cloud-form">
      <Field
        label={t('whatsapp.cloud.phoneNumberId')}
        hint={t('whatsapp.cloud.phoneNumberIdHint')}
        inputMode="numeric"
        value={form.phoneNumberId}
        onChange={set('phoneNumberId')}
      />
      <Field
        label={t('whatsapp.cloud.businessAccountId')}
        inputMode="numeric"
        value={form.businessAccountId}
        onChange={set('businessAccountId')}
      />
      <Field {...secret('accessToken')} />
      {config.appSecretConfigured ? null : <Field {...secret('appSecret')} />}
      <CloudWebhookPanel />
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Button type="submit" disabled={busy}>
        {busy ? t('whatsapp.cloud.connecting') : t('whatsapp.cloud.connect')}
      </Button>
    </form>
  );
}
