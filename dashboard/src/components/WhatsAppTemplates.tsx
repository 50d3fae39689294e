/**
 * The WhatsApp screen's message templates panel (issue 28 §1, §4), shown for a Cloud API number:
 * Charla's five UTILITY templates in the seven languages with their status at Meta (pending,
 * approved, rejected with Meta's reason), the one click that submits them, a "check now", and the
 * messages the closed 24-hour window keeps waiting (an owner's held reply, a reminder with no
 * approved template) and why. Routes: `GET|POST /api/whatsapp/:chatbotId/templates`,
 * `POST …/templates/check`, `GET /api/whatsapp/:chatbotId/waiting`.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import type { z } from 'zod';
import type { TemplatesResponse } from '../../../adapters/whatsapp/cloud/template-api.ts';
import { i18n } from '../i18n/index.ts';
import { Button } from './ui.tsx';
import { WhatsAppWaiting } from './WhatsAppWaiting.tsx';

type Templates = z.infer<typeof TemplatesResponse>;

const TEMPLATE_IDS = [
  'booking_confirmation',
  'reminder_24h',
  'reminder_2h',
  'booking_changed',
  'team_answered',
  'broadcast',
] as const;
const LANGS = ['es', 'en', 'fr', 'de', 'it', 'ru', 'hi'] as const;
const KNOWN_STATUS = ['NOT_SUBMITTED', 'PENDING', 'APPROVED', 'REJECTED', 'PAUSED', 'DISABLED', 'ERROR'];

/** An owner route's JSON, in the interface language (its errors come translated). */
async function call<T>(method: 'GET' | 'POST', url: string): Promise<T> {
  const res = await fetch(url, {
    method,
    credentials: 'same-origin',
    headers: {
      'x-app-language': i18n.language,
      ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
    },
    ...(method === 'POST' ? { body: '{}' } : {}),
  });
  const data = (await res.json().catch(() => ({}))) as T & { error?: string };
  if (!res.ok) throw new Error(data.error ?? String(res.status));
  return data;
}

/** The colours of a status badge. */
function tone(status: string): string {
  if (status === 'APPROVED') return 'border-emerald-300 bg-emerald-50 text-emerald-900';
  if (status === 'PENDING' || status === 'IN_APPEAL') return 'border-amber-300 bg-amber-50 text-amber-900';
  if (status === 'NOT_SUBMITTED') return 'border-slate-300 bg-white text-slate-700';
  return 'border-red-300 bg-red-50 text-red-900';
}

/** The templates panel and the waiting messages of a Cloud API bot. */
export function WhatsAppTemplates({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState<'submit' | 'check' | null>(null);
  const base = `/api/whatsapp/${encodeURIComponent(chatbotId)}`;
  const templates = useQuery({
    queryKey: ['whatsapp-templates', chatbotId],
    queryFn: () => call<Templates>('GET', `${base}/templates`),
    refetchInterval: 30_000,
  });

  async function act(kind: 'submit' | 'check') {
    setBusy(kind);
    try {
      const data = await call<Templates>(
        'POST',
        kind === 'submit' ? `${base}/templates` : `${base}/templates/check`,
      );
      queryClient.setQueryData(['whatsapp-templates', chatbotId], data);
      toast.success(t(kind === 'submit' ? 'whatsapp.templates.submitted' : 'whatsapp.templates.checked'));
    } catch (err) {
      toast.error((err as Error).message || t('whatsapp.templates.error'));
    } finally {
      setBusy(null);
    }
  }

  const list = templates.data?.templates ?? [];
  const count = (s: (status: string) => boolean) => list.filter((x) => s(x.status)).length;
  const approved = count((s) => s === 'APPROVED');
  const pending = count((s) => s === 'PENDING' || s === 'IN_APPEAL');
  const missing = count((s) => s === 'NOT_SUBMITTED');
  const rejected = list.length - approved - pending - missing;
  const canSubmit = missing + count((s) => s === 'REJECTED' || s === 'ERROR') > 0;
  const statusText = (s: string) => t(`whatsapp.templates.status.${KNOWN_STATUS.includes(s) ? s : 'other'}`);

  return (
    <section className="space-y-4 rounded-xl border border-slate-200 p-4" data-testid="whatsapp-templates">
      <div className="space-y-1">
        <h3 className="font-semibold">{t('whatsapp.templates.title')}</h3>
        <p className="text-sm text-slate-600">{t('whatsapp.templates.intro')}</p>
      </div>
      {templates.isError ? (
        <p role="alert" className="text-sm text-red-800">
          {templates.error.message}
        </p>
      ) : null}
      <p className="text-sm font-medium text-slate-800" data-testid="whatsapp-templates-summary">
        {t('whatsapp.templates.summary', { approved, pending, rejected, missing })}
      </p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button
          className="sm:w-auto"
          disabled={busy !== null || !canSubmit}
          onClick={() => void act('submit')}
          data-testid="whatsapp-templates-submit"
        >
          {busy === 'submit' ? t('whatsapp.templates.submitting') : t('whatsapp.templates.submit')}
        </Button>
        <Button
          variant="secondary"
          className="sm:w-auto"
          disabled={busy !== null || missing === list.length}
          onClick={() => void act('check')}
        >
          {t('whatsapp.templates.check')}
        </Button>
      </div>
      <ul className="divide-y divide-slate-100">
        {TEMPLATE_IDS.map((id) => {
          const rows = LANGS.map((lang) => list.find((x) => x.id === id && x.language === lang));
          const refused = rows.filter((r) => r?.reason && r.status !== 'APPROVED');
          return (
            <li key={id} className="space-y-2 py-3" data-testid={`whatsapp-template-${id}`}>
              <p className="text-sm font-medium">{t(`whatsapp.templates.names.${id}`)}</p>
              <div className="flex flex-wrap gap-1.5">
                {rows.map((r, i) => (
                  <span
                    key={LANGS[i]}
                    title={r ? statusText(r.status) : ''}
                    className={`inline-flex items-center gap-1 rounded-full border px-2 py-0.5 text-xs ${tone(r?.status ?? 'NOT_SUBMITTED')}`}
                  >
                    <span className="font-semibold uppercase">{LANGS[i]}</span>
                    <span>{statusText(r?.status ?? 'NOT_SUBMITTED')}</span>
                  </span>
                ))}
              </div>
              {refused.map((r) => (
                <p key={r!.language} className="text-xs text-red-800">
                  <span className="font-semibold uppercase">{r!.language}</span> ·{' '}
                  {t('whatsapp.templates.reason', { reason: r!.reason })}
                </p>
              ))}
            </li>
          );
        })}
      </ul>
      <div className="space-y-2" data-testid="whatsapp-waiting">
        <h4 className="text-sm font-semibold">{t('whatsapp.templates.waiting.title')}</h4>
        <WhatsAppWaiting chatbotId={chatbotId} />
      </div>
    </section>
  );
}
