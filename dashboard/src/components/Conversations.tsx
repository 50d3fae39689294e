/**
 * The followers' chat screen (spec 001 §2 Followers chat screen; issue 14): followers on the left
 * (newest activity first, channel, name, last message, unread count; a search by name; collapsible
 * below 700 px), the conversation on the right with its files rendered (image, PDF, audio, video)
 * and texts starting with "(texto:" or "(archivo:" hidden, older pages on demand, the owner's reply
 * box, the "bot paused" switch with its quiet period, and the delete button ("Error al eliminar la
 * conversación: {message}"); above, the broadcast bar; floating, the voice recorder. Live through the plugin's event stream; every 3 s when it is down.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { hiddenText } from '../../../plugins/conversations/api.ts';
import { type FollowerRow, followersQuery } from '../lib/conversations.ts';
import { quietEventSource } from '../lib/sse.ts';
import { BroadcastBar } from './BroadcastBar.tsx';
import { Conversation } from './ConversationThread.tsx';
import { PhoneLink } from './PhoneLink.tsx';
import { SrLabel } from './ui.tsx';
import { VoiceRecorder } from './VoiceRecorder.tsx';

const CHANNEL_ICON: Record<string, string> = {
  telegram: '✈️',
  whatsapp: '🟢',
  web: '🌐',
  ialanding: '🌐',
  test: '🧪',
  cli: '⌨️',
};

/** The whole screen for one bot. */
export function Conversations({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const [q, setQ] = useState('');
  const [open, setOpen] = useState<{ channel: string; userId: string } | null>(null);
  const [listShown, setListShown] = useState(true);
  const followers = useQuery(followersQuery(chatbotId, q.trim(), live));

  // Live through the event stream; while it is down the lists poll every 3 s (`live` false), and
  // when it is back (or its server got its database back: `resync`, issue 24 §1) they reload.
  useEffect(() => {
    const reload = () => void queryClient.invalidateQueries({ queryKey: ['conversations', chatbotId] });
    const close = quietEventSource(
      `/api/conversations/${chatbotId}/events`,
      '/api/conversations/events/close',
      { ready: () => setLive(true), message: reload },
      { resync: reload, down: () => setLive(false) },
    );
    return () => {
      close();
      setLive(false);
    };
  }, [chatbotId, queryClient]);

  const list = followers.data?.followers ?? [];
  const current = open ? list.find((f) => f.channel === open.channel && f.userId === open.userId) : undefined;

  return (
    <div className="space-y-4">
      <PhoneLink chatbotId={chatbotId} />
      <BroadcastBar chatbotId={chatbotId} />
      <div className="grid gap-4 min-[700px]:grid-cols-[300px_1fr]">
        <aside
          className="rounded-2xl border border-slate-200 bg-white shadow-sm"
          aria-label={t('conversations.followers')}
        >
          <div className="flex items-center justify-between gap-2 border-b border-slate-200 p-3">
            <h2 className="font-semibold">
              {t('conversations.followers')} <span className="text-slate-600">({list.length})</span>
            </h2>
            <button
              type="button"
              className="rounded-lg px-2 py-1 text-sm text-brand-800 min-[700px]:hidden"
              aria-expanded={listShown}
              onClick={() => setListShown((v) => !v)}
            >
              {listShown ? t('conversations.hideList') : t('conversations.showList')}
            </button>
          </div>
          <div className={`${listShown ? '' : 'hidden'} min-[700px]:block`}>
            <div className="p-3">
              <SrLabel htmlFor="conversations-search">{t('conversations.search')}</SrLabel>
              <input
                id="conversations-search"
                type="search"
                value={q}
                placeholder={t('conversations.search')}
                onChange={(e) => setQ(e.target.value)}
                className="block w-full rounded-lg border border-slate-300 px-3 py-2 text-base"
              />
            </div>
            {followers.isPending ? (
              <p className="p-3 text-sm text-slate-600">{t('conversations.loading')}</p>
            ) : list.length === 0 ? (
              <p className="p-3 text-sm text-slate-600">
                {q ? t('conversations.noMatch') : t('conversations.empty')}
              </p>
            ) : (
              <ul className="max-h-[65dvh] overflow-y-auto">
                {list.map((f) => (
                  <li key={`${f.channel}:${f.userId}`}>
                    <FollowerButton
                      follower={f}
                      selected={open?.channel === f.channel && open.userId === f.userId}
                      onSelect={() => {
                        setOpen({ channel: f.channel, userId: f.userId });
                        setListShown(false);
                      }}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </aside>
        <section
          className="min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm"
          aria-label={t('conversations.conversation')}
        >
          {open ? (
            <Conversation
              key={`${open.channel}:${open.userId}`}
              chatbotId={chatbotId}
              channel={open.channel}
              userId={open.userId}
              name={current?.name ?? null}
              live={live}
              onDeleted={() => setOpen(null)}
            />
          ) : (
            <p className="p-6 text-sm text-slate-600">{t('conversations.pick')}</p>
          )}
        </section>
      </div>
      <VoiceRecorder
        chatbotId={chatbotId}
        follower={open ? { ...open, name: current?.name ?? open.userId } : null}
      />
    </div>
  );
}

function FollowerButton({
  follower: f,
  selected,
  onSelect,
}: {
  follower: FollowerRow;
  selected: boolean;
  onSelect: () => void;
}) {
  const { t, i18n } = useTranslation();
  const time = new Intl.DateTimeFormat(i18n.language, {
    hour: '2-digit',
    minute: '2-digit',
    day: 'numeric',
    month: 'short',
  }).format(new Date(f.lastAt));
  return (
    <button
      type="button"
      onClick={onSelect}
      aria-current={selected ? 'true' : undefined}
      className={`flex w-full items-start gap-3 border-t border-slate-100 px-3 py-2.5 text-left hover:bg-slate-50 ${selected ? 'bg-brand-50' : ''}`}
    >
      <span aria-hidden="true" className="mt-0.5 text-lg">
        {CHANNEL_ICON[f.channel] ?? '💬'}
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-baseline justify-between gap-2">
          <span className="truncate font-semibold">{f.name ?? f.userId}</span>
          <span className="shrink-0 text-xs text-slate-600">{time}</span>
        </span>
        <span className="sr-only">
          {t(`conversations.channels.${f.channel}`, { defaultValue: f.channel })}
        </span>
        <span className="block truncate text-sm text-slate-600">
          {hiddenText(f.lastText) ? '…' : f.lastText}
        </span>
        {f.pausedUntil ? (
          <span className="text-xs font-medium text-amber-800">{t('conversations.pausedShort')}</span>
        ) : null}
      </span>
      {f.unread > 0 ? (
        <span className="rounded-full bg-brand-700 px-2 py-0.5 text-xs font-bold text-white">
          <span className="sr-only">{t('conversations.unread', { count: f.unread })}</span>
          <span aria-hidden="true">{f.unread}</span>
        </span>
      ) : null}
    </button>
  );
}
