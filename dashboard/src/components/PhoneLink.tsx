/**
 * "Answer from your phone" on /usuarios-conversaciones (issue 14 §2): the owner links their own
 * Telegram to the bot with a one-time deep link (valid 15 minutes, once); then each follower
 * message reaches their Telegram, and replying to it answers that follower and pauses the bot.
 * While a link is out, the status refreshes every 3 s so the card turns "linked" on its own.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { createPhoneLink, phoneQuery, unlinkPhone } from '../lib/conversations.ts';
import { DangerButton } from './ui.tsx';

/** The card, for one bot. */
export function PhoneLink({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [link, setLink] = useState<string | null>(null);
  const status = useQuery(phoneQuery(chatbotId, link !== null));
  const data = status.data;
  if (!data) return null;
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['conversations', chatbotId, 'phone'] });

  async function start() {
    try {
      setLink((await createPhoneLink(chatbotId)).url);
    } catch {
      toast.error(t('phone.error'));
    }
  }
  async function unlink() {
    if (!window.confirm(t('phone.confirmUnlink'))) return;
    try {
      await unlinkPhone(chatbotId);
      setLink(null);
      await refresh();
    } catch {
      toast.error(t('phone.error'));
    }
  }

  return (
    <section className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold">📱 {t('phone.title')}</h2>
        <p className="text-sm text-slate-600">
          {!data.telegram ? t('phone.needsTelegram') : data.linked ? t('phone.linked') : t('phone.explain')}
        </p>
        {link && !data.linked ? (
          <p className="mt-2 text-sm">
            <a
              href={link}
              target="_blank"
              rel="noreferrer"
              className="font-semibold text-brand-800 underline"
            >
              {t('phone.open')}
            </a>{' '}
            <span className="text-slate-600">{t('phone.expires')}</span>
          </p>
        ) : null}
      </div>
      {data.telegram && !data.linked ? (
        <button
          type="button"
          onClick={() => void start()}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white"
        >
          {link ? t('phone.again') : t('phone.link')}
        </button>
      ) : null}
      {data.linked ? (
        <DangerButton look="quietLarge" onClick={() => void unlink()} label={t('phone.unlink')} />
      ) : null}
    </section>
  );
}
