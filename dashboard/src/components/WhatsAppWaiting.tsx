/**
 * The messages WhatsApp's closed 24-hour window keeps waiting (issue 28 §1: "the owner sees exactly
 * which messages are waiting and why"): an owner's reply held behind the "team has answered"
 * template, or a message no approved template could carry, each with why. Shown on the WhatsApp
 * screen for every follower and, with `chatId`, in that follower's conversation.
 * `GET /api/whatsapp/:chatbotId/waiting` (adapters/whatsapp/cloud/template-routes.ts).
 */
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import type { WaitingResponse } from '../../../adapters/whatsapp/cloud/template-api.ts';
import { i18n } from '../i18n/index.ts';

type Waiting = z.infer<typeof WaitingResponse>;

/** The waiting messages (of one follower with `chatId`); nothing when none wait and `quiet`. */
export function WhatsAppWaiting({
  chatbotId,
  chatId,
  quiet = false,
}: {
  chatbotId: string;
  chatId?: string;
  quiet?: boolean;
}) {
  const { t } = useTranslation();
  const waiting = useQuery({
    queryKey: ['whatsapp-waiting', chatbotId],
    queryFn: async (): Promise<Waiting> => {
      const res = await fetch(`/api/whatsapp/${encodeURIComponent(chatbotId)}/waiting`, {
        credentials: 'same-origin',
        headers: { 'x-app-language': i18n.language },
      });
      if (!res.ok) throw new Error(String(res.status));
      return (await res.json()) as Waiting;
    },
    refetchInterval: 30_000,
    retry: false,
  });
  const list = (waiting.data?.waiting ?? []).filter((w) => chatId === undefined || w.chatId === chatId);
  if (list.length === 0)
    return quiet ? null : <p className="text-sm text-slate-600">{t('whatsapp.templates.waiting.empty')}</p>;
  return (
    <ul className="space-y-2" data-testid="whatsapp-waiting-list">
      {list.map((w) => (
        <li
          key={w.id}
          className={`rounded-lg border px-3 py-2 text-sm ${w.state === 'held' ? 'border-sky-200 bg-sky-50' : 'border-amber-300 bg-amber-50'}`}
        >
          <p className="font-medium">
            {chatId === undefined ? (w.name ?? w.phone ?? w.chatId) : t('whatsapp.templates.waiting.title')}
            {chatId === undefined && w.phone && w.name ? (
              <span className="font-normal text-slate-600"> · +{w.phone}</span>
            ) : null}
            <span className="font-normal text-slate-600">
              {' · '}
              {t(`whatsapp.templates.waiting.from.${w.sender}`)} ·{' '}
              {new Date(w.createdAt).toLocaleString(i18n.language)}
            </span>
          </p>
          <p className="mt-1 line-clamp-2 break-words text-slate-800">{w.text}</p>
          <p className="mt-1 text-xs font-medium text-slate-700">
            {t(`whatsapp.templates.waiting.reasons.${w.reason ?? 'no_approved_template'}`, {
              template: w.template ? t(`whatsapp.templates.names.${w.template}`) : '',
            })}
          </p>
        </li>
      ))}
    </ul>
  );
}
