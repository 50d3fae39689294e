/**
 * What the owner pastes in their Meta app for the Cloud API webhook (issue 28 §3), from
 * `GET /api/whatsapp-cloud-setup`: the exact callback URL and verify token, each with a copy
 * button, and a warning when Meta cannot reach this server's public address (a local or private
 * address such as 127.0.0.1, or plain http). The warning says what is wrong and that the operator
 * fixes it; it never names an environment variable.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { CloudSetupResponse } from '../../../adapters/whatsapp/api.ts';
import { getJson } from '../lib/api.ts';

/** How long "Copiado" stays on a copy button, ms. */
const COPIED_MS = 2000;

/** `GET /api/whatsapp-cloud-setup` (the same for every bot of the server). */
export const cloudSetupQuery = queryOptions({
  queryKey: ['whatsapp-cloud-setup'],
  queryFn: () => getJson<CloudSetupResponse>('/api/whatsapp-cloud-setup'),
  staleTime: 60_000,
});

/**
 * Copies `text` to the clipboard: the Clipboard API where the page is a secure context, else a
 * selected off-screen textarea and `document.execCommand('copy')` (plain-http LAN addresses).
 * @returns false when neither worked.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // fall through to the textarea
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  try {
    return document.execCommand('copy');
  } catch {
    return false;
  } finally {
    area.remove();
  }
}

/** One value to paste at Meta: its label, the value in monospace, and a copy button. */
function CopyRow({ label, value, testId }: { label: string; value: string; testId: string }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = async () => {
    if (!(await copyText(value))) {
      toast.error(t('whatsapp.webhook.copyError'));
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  };
  return (
    <div className="space-y-1" data-testid={testId}>
      <p className="font-medium text-slate-800">{label}</p>
      <div className="flex items-stretch gap-2">
        <code className="min-w-0 flex-1 rounded-md border border-slate-200 bg-white px-2 py-1.5 font-mono text-xs break-all text-slate-900">
          {value}
        </code>
        <button
          type="button"
          onClick={() => void copy()}
          aria-label={t('whatsapp.webhook.copyLabel', { what: label })}
          className="shrink-0 rounded-md border border-slate-300 bg-white px-3 text-xs font-semibold text-brand-800 hover:bg-slate-100"
        >
          <span aria-live="polite">{copied ? t('whatsapp.webhook.copied') : t('whatsapp.webhook.copy')}</span>
        </button>
      </div>
    </div>
  );
}

/** The warning that Meta cannot reach this server (nothing when it can, or while loading). */
export function WebhookWarning({ setup }: { setup: CloudSetupResponse | undefined }) {
  const { t } = useTranslation();
  if (!setup?.problem) return null;
  const url = new URL(setup.webhookUrl).origin;
  return (
    <div
      role="alert"
      className="rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
      data-testid="whatsapp-webhook-warning"
    >
      {t(`whatsapp.webhook.${setup.problem}`, { url })}
    </div>
  );
}

/** The Cloud API form's webhook box: the warning, then the callback URL and verify token to copy. */
export function CloudWebhookPanel() {
  const { t } = useTranslation();
  const setup = useQuery(cloudSetupQuery);
  if (setup.isError)
    return (
      <p className="text-xs text-red-800" role="alert">
        {t('whatsapp.webhook.loadError')}
      </p>
    );
  if (!setup.data) return null;
  return (
    <div className="space-y-3" data-testid="whatsapp-webhook">
      <WebhookWarning setup={setup.data} />
      <div className="space-y-2 rounded-lg border border-slate-200 bg-slate-50 p-3 text-xs text-slate-700">
        <p className="font-medium">{t('whatsapp.webhook.title')}</p>
        <CopyRow
          label={t('whatsapp.webhook.url')}
          value={setup.data.webhookUrl}
          testId="whatsapp-webhook-url"
        />
        <CopyRow
          label={t('whatsapp.webhook.token')}
          value={setup.data.verifyToken}
          testId="whatsapp-webhook-token"
        />
      </div>
    </div>
  );
}
