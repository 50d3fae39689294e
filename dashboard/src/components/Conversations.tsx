/**
 * The followers' chat screen (spec 001 §2 Followers chat screen; issue 14): followers on the left
 * (newest activity first, channel, name, last message, unread count; a search by name; collapsible
 * below 700 px), the conversation on the right with its files rendered (image, PDF, audio, video)
 * and texts starting with "(texto:" or "(archivo:" hidden, older pages on demand, the owner's reply
 * box, the "bot paused" switch with its quiet period, and the delete button ("Error al eliminar la
 * conversación: {message}"); above, the broadcast bar; floating, the voice recorder. Live through the plugin's event stream; every 3 s when it is down.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { hiddenText, QUIET_CHOICES } from '../../../plugins/conversations/api.ts';
import {
  ConversationsError,
  deleteConversation,
  type FollowerRow,
  followersQuery,
  type MessageRow,
  messagesQuery,
  olderMessages,
  reply,
  takeover,
} from '../lib/conversations.ts';
import { quietEventSource } from '../lib/sse.ts';
import { BroadcastBar } from './BroadcastBar.tsx';
import { enterSends } from './ChatComposer.tsx';
import { PhoneLink } from './PhoneLink.tsx';
import { Alert } from './ui.tsx';
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
              <label className="sr-only" htmlFor="conversations-search">
                {t('conversations.search')}
              </label>
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

function Conversation({
  chatbotId,
  channel,
  userId,
  name,
  live,
  onDeleted,
}: {
  chatbotId: string;
  channel: string;
  userId: string;
  name: string | null;
  live: boolean;
  onDeleted: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const page = useQuery(messagesQuery(chatbotId, channel, userId, live));
  const [older, setOlder] = useState<MessageRow[]>([]);
  const [more, setMore] = useState<boolean | null>(null);
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const boxId = useId();
  const data = page.data;
  const messages = [...older, ...(data?.messages ?? [])].filter((m) => !hiddenText(m.text) || m.attachment);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['conversations', chatbotId] });

  // Newest at the bottom, in view when it arrives.
  const count = data?.messages.length ?? 0;
  const lastId = data?.messages.at(-1)?.id;
  useEffect(() => {
    if (count && lastId) logRef.current?.scrollTo({ top: logRef.current.scrollHeight });
  }, [count, lastId]);

  async function send() {
    const body = text.trim();
    if (!body || sending) return;
    setSending(true);
    setError(null);
    try {
      await reply(chatbotId, channel, userId, body);
      setText('');
      await refresh();
    } catch (err) {
      setError(err instanceof ConversationsError && err.message ? err.message : t('conversations.sendError'));
    } finally {
      setSending(false);
    }
  }
  async function setPaused(paused: boolean, minutes?: number) {
    try {
      await takeover(chatbotId, channel, userId, paused, minutes);
      await refresh();
    } catch {
      toast.error(t('conversations.pauseError'));
    }
  }
  async function remove() {
    if (!window.confirm(t('conversations.confirmDelete'))) return;
    try {
      await deleteConversation(chatbotId, channel, userId);
      onDeleted();
      await refresh();
    } catch (err) {
      toast.error(
        t('conversations.deleteError', { message: err instanceof Error && err.message ? err.message : '—' }),
      );
    }
  }
  async function loadOlder() {
    const first = older[0] ?? data?.messages[0];
    if (!first) return;
    const answer = await olderMessages(chatbotId, channel, userId, first.id);
    setOlder((o) => [...answer.messages, ...o]);
    setMore(answer.more);
  }

  const pausedUntil = data?.pausedUntil ? new Date(data.pausedUntil) : null;
  const hhmm = (d: Date) =>
    new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(d);

  return (
    <div className="flex h-full min-h-[60dvh] flex-col">
      <header className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 p-3">
        <div className="min-w-0">
          <h2 className="truncate font-semibold">{name ?? userId}</h2>
          <p className="text-xs text-slate-600">
            {t(`conversations.channels.${channel}`, { defaultValue: channel })}
          </p>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <label className="flex items-center gap-2 text-sm font-medium">
            <input
              type="checkbox"
              role="switch"
              aria-checked={Boolean(pausedUntil)}
              checked={Boolean(pausedUntil)}
              onChange={(e) => void setPaused(e.target.checked)}
              className="h-4 w-4 accent-amber-600"
            />
            {t('conversations.paused')}
          </label>
          <label className="flex items-center gap-1 text-sm">
            <span>{t('conversations.quiet')}</span>
            <select
              value={data?.quietMinutes ?? 30}
              onChange={(e) => void setPaused(Boolean(pausedUntil), Number(e.target.value))}
              className="rounded-md border border-slate-300 px-1.5 py-1 text-sm"
            >
              {QUIET_CHOICES.map((m) => (
                <option key={m} value={m}>
                  {m < 60
                    ? t('conversations.minutes', { n: m })
                    : t('conversations.hours', { count: m / 60 })}
                </option>
              ))}
            </select>
          </label>
          <button
            type="button"
            onClick={() => void remove()}
            className="rounded-lg px-2 py-1 text-sm font-medium text-red-700 hover:bg-red-50"
          >
            {t('conversations.delete')}
          </button>
        </div>
        {pausedUntil ? (
          <p role="status" className="w-full rounded-lg bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
            {t('conversations.pausedUntil', { time: hhmm(pausedUntil) })}
          </p>
        ) : null}
      </header>
      <div
        ref={logRef}
        role="log"
        // A scrollable log must be reachable by keyboard (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        tabIndex={0}
        aria-label={t('conversations.conversation')}
        className="flex-1 space-y-2 overflow-y-auto p-3"
        style={{ maxHeight: '55dvh' }}
      >
        {(more ?? data?.more) ? (
          <button
            type="button"
            onClick={() => void loadOlder()}
            className="mx-auto block text-sm text-brand-800 underline"
          >
            {t('conversations.older')}
          </button>
        ) : null}
        {messages.map((m) => (
          <Bubble key={m.id} message={m} />
        ))}
      </div>
      <form
        className="space-y-2 border-t border-slate-200 p-3"
        onSubmit={(e) => {
          e.preventDefault();
          void send();
        }}
      >
        {error ? <Alert tone="error">{error}</Alert> : null}
        {data && !data.canReply ? <Alert tone="info">{t('conversations.cannotReply')}</Alert> : null}
        <div className="flex gap-2">
          <label htmlFor={boxId} className="sr-only">
            {t('conversations.replyLabel')}
          </label>
          <textarea
            id={boxId}
            rows={2}
            maxLength={4000}
            value={text}
            disabled={!data?.canReply || sending}
            placeholder={t('conversations.replyPlaceholder')}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={enterSends(() => void send())}
            className="block min-w-0 flex-1 rounded-lg border border-slate-300 px-3 py-2 text-base disabled:bg-slate-100"
          />
          <button
            type="submit"
            disabled={!text.trim() || sending || !data?.canReply}
            className="rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white disabled:bg-slate-400"
          >
            {t('conversations.send')}
          </button>
        </div>
        <p className="text-xs text-slate-600">{t('conversations.takeoverHint')}</p>
      </form>
    </div>
  );
}

function Bubble({ message: m }: { message: MessageRow }) {
  const { t, i18n } = useTranslation();
  const mine = m.from !== 'user';
  const a = m.attachment;
  return (
    <div className={`flex ${mine ? 'justify-end' : 'justify-start'}`}>
      <div
        className={`max-w-[85%] space-y-1 rounded-2xl px-3 py-2 text-sm ${
          m.from === 'owner'
            ? 'bg-amber-100 text-amber-950'
            : m.from === 'bot'
              ? 'bg-brand-50 text-slate-900'
              : 'bg-slate-100 text-slate-900'
        }`}
      >
        <p className="text-xs font-semibold text-slate-700">
          {t(`conversations.from.${m.from}`)} ·{' '}
          {new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(
            new Date(m.at),
          )}
        </p>
        {m.text && !hiddenText(m.text) ? <p className="whitespace-pre-wrap break-words">{m.text}</p> : null}
        {a?.type === 'image' ? <img src={a.url} alt={a.name} className="max-h-60 rounded-lg" /> : null}
        {a?.type === 'audio' ? (
          // biome-ignore lint/a11y/useMediaCaption: a follower's or bot's audio file has no captions to offer
          <audio controls preload="none" src={a.url} className="w-full" />
        ) : null}
        {a?.type === 'video' ? (
          // biome-ignore lint/a11y/useMediaCaption: a follower's or bot's video file has no captions to offer
          <video controls preload="metadata" src={a.url} className="max-h-60 w-full rounded-lg" />
        ) : null}
        {a && a.type !== 'image' && a.type !== 'audio' && a.type !== 'video' ? (
          <a href={a.url} target="_blank" rel="noreferrer" className="font-medium text-brand-800 underline">
            📄 {a.name}
          </a>
        ) : null}
      </div>
    </div>
  );
}
