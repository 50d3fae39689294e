/**
 * The followers' chat screen (spec 001 §2 Followers chat screen; issues 14 and 27 §4): followers on
 * the left (components/FollowerList.tsx: newest activity first, named by what the channel knows,
 * searched by name or message text and filtered by channel and state on the server, the owner's
 * test chats apart; collapsible below 700 px), the conversation on the right
 * (ConversationThread.tsx); above, "answer from your phone" and the broadcast bar, behind two
 * buttons on a phone so the thread comes first; floating, the voice recorder. Fits a 390 px phone
 * with no sideways scroll. Live through the plugin's event stream; every 3 s when it is down.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FollowersQuery } from '../../../plugins/conversations/api.ts';
import { followersQuery } from '../lib/conversations.ts';
import { quietEventSource } from '../lib/sse.ts';
import { BroadcastBar } from './BroadcastBar.tsx';
import { Conversation } from './ConversationThread.tsx';
import { FollowerButton, FollowerFilters, followerName } from './FollowerList.tsx';
import { PhoneLink } from './PhoneLink.tsx';
import { VoiceRecorder } from './VoiceRecorder.tsx';

/** Below this width the list collapses and the tools hide behind buttons (Tailwind's `min-[700px]`). */
const PHONE = '(max-width: 699px)';

/**
 * The whole screen for one bot. `initial`: the conversation to open first (a notification's link
 * straight to it, issue 27 §1: `?channel=&userId=`).
 */
export function Conversations({
  chatbotId,
  initial,
}: {
  chatbotId: string;
  initial?: { channel: string; userId: string } | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [live, setLive] = useState(false);
  const [filter, setFilter] = useState<FollowersQuery>({});
  // The search waits for a pause in typing before asking the server.
  const [query, setQuery] = useState<FollowersQuery>({});
  const [open, setOpen] = useState<{ channel: string; userId: string } | null>(initial ?? null);
  const [listShown, setListShown] = useState(true);
  const [tool, setTool] = useState<'phone' | 'broadcast' | null>(null);
  const threadRef = useRef<HTMLElement>(null);
  const followers = useQuery(followersQuery(chatbotId, query, live));

  useEffect(() => {
    const timer = setTimeout(() => setQuery({ ...filter, q: filter.q?.trim() || undefined }), 250);
    return () => clearTimeout(timer);
  }, [filter]);

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
  const name = current ? followerName(t, current) : null;
  const toolButton = (id: 'phone' | 'broadcast', label: string) => (
    <button
      type="button"
      aria-expanded={tool === id}
      onClick={() => setTool((v) => (v === id ? null : id))}
      className="rounded-lg border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-brand-800"
    >
      {label}
    </button>
  );

  return (
    <div className="min-w-0 space-y-4">
      <div className="flex flex-wrap gap-2 min-[700px]:hidden">
        {toolButton('phone', `📱 ${t('phone.title')}`)}
        {toolButton('broadcast', `📣 ${t('broadcast.title')}`)}
      </div>
      <div className={`${tool === 'phone' ? '' : 'hidden'} min-[700px]:block`}>
        <PhoneLink chatbotId={chatbotId} />
      </div>
      <div className={`${tool === 'broadcast' ? '' : 'hidden'} min-[700px]:block`}>
        <BroadcastBar chatbotId={chatbotId} />
      </div>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-4 min-[700px]:grid-cols-[300px_minmax(0,1fr)]">
        <aside
          className="min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm"
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
            <FollowerFilters filter={filter} onChange={setFilter} />
            {followers.isPending ? (
              <p className="p-3 text-sm text-slate-600">{t('conversations.loading')}</p>
            ) : list.length === 0 ? (
              <p className="p-3 text-sm text-slate-600">
                {query.q || query.channel || query.status
                  ? t('conversations.noMatch')
                  : t('conversations.empty')}
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
                        if (window.matchMedia(PHONE).matches)
                          requestAnimationFrame(() => threadRef.current?.scrollIntoView({ block: 'start' }));
                      }}
                    />
                  </li>
                ))}
              </ul>
            )}
          </div>
        </aside>
        <section
          ref={threadRef}
          className="min-w-0 rounded-2xl border border-slate-200 bg-white shadow-sm"
          aria-label={t('conversations.conversation')}
        >
          {open ? (
            <Conversation
              key={`${open.channel}:${open.userId}`}
              chatbotId={chatbotId}
              channel={open.channel}
              userId={open.userId}
              name={name}
              live={live}
              onDeleted={() => setOpen(null)}
            />
          ) : (
            <p className="p-6 text-sm text-slate-600">{t('conversations.pick')}</p>
          )}
        </section>
      </div>
      <VoiceRecorder chatbotId={chatbotId} follower={open ? { ...open, name: name ?? open.userId } : null} />
    </div>
  );
}
