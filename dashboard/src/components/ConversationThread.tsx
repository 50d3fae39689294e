/**
 * One follower's conversation on the followers' chat screen (components/Conversations.tsx; spec 001
 * §2, issue 14): the messages with their files rendered and texts starting with "(texto:" or
 * "(archivo:" hidden, older pages on demand, the owner's reply box (with a stored or uploaded file
 * attached: ReplyAttachment.tsx, issue 27 §3), the "bot paused" switch with
 * its quiet period, the conversation's state (open, needs a person, resolved; issue 27 §4.4), and
 * the delete button ("Error al eliminar la conversación: {message}"). The reply box stays in view
 * at the bottom of the screen while the conversation is (issue 27 §4.1).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  CONVERSATION_STATUSES,
  type ConversationStatus,
  hiddenText,
  QUIET_CHOICES,
} from '../../../plugins/conversations/api.ts';
import {
  ConversationsError,
  deleteConversation,
  type MessageRow,
  messagesQuery,
  olderMessages,
  type ReplyFile,
  reply,
  sendFile,
  setStatus,
  takeover,
} from '../lib/conversations.ts';
import { MediaPlayer } from './ChatBubble.tsx';
import { enterSends, submitSends } from './ChatComposer.tsx';
import { ReplyAttachment } from './ReplyAttachment.tsx';
import { Alert, DangerButton, SrLabel } from './ui.tsx';
import { WhatsAppWaiting } from './WhatsAppWaiting.tsx';

/** The conversation with one follower: messages, reply box, pause switch, delete. */
export function Conversation({
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
  const [file, setFile] = useState<ReplyFile | null>(null);
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
  // Reading the newest page marked it read on the server: the list's unread count follows.
  useEffect(() => {
    if (lastId) void queryClient.invalidateQueries({ queryKey: ['conversations', chatbotId, 'followers'] });
  }, [lastId, chatbotId, queryClient]);

  async function send() {
    const body = text.trim();
    if ((!body && !file) || sending) return;
    setSending(true);
    setError(null);
    try {
      // Issue 27 §3: with a file, the text goes along with it.
      if (file) await sendFile(chatbotId, { channel, userId }, body, file);
      else await reply(chatbotId, channel, userId, body);
      setText('');
      setFile(null);
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
  async function changeStatus(status: ConversationStatus) {
    try {
      await setStatus(chatbotId, channel, userId, status);
      await refresh();
    } catch {
      toast.error(t('conversations.statusError'));
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
          <label className="flex items-center gap-1 text-sm">
            <span>{t('conversations.statusLabel')}</span>
            <select
              value={data?.status ?? 'open'}
              onChange={(e) => void changeStatus(e.target.value as ConversationStatus)}
              className="rounded-md border border-slate-300 px-1.5 py-1 text-sm"
            >
              {CONVERSATION_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`conversations.status.${s}`)}
                </option>
              ))}
            </select>
          </label>
          <DangerButton look="quiet" onClick={() => void remove()} label={t('conversations.delete')} />
        </div>
        {pausedUntil ? (
          <p role="status" className="w-full rounded-lg bg-amber-50 px-3 py-1.5 text-sm text-amber-900">
            {t('conversations.pausedUntil', { time: hhmm(pausedUntil) })}
          </p>
        ) : null}
        {channel === 'whatsapp' ? (
          <div className="w-full">
            {/* Issue 28 §1: what WhatsApp's closed window keeps waiting for this follower, and why. */}
            <WhatsAppWaiting chatbotId={chatbotId} chatId={userId} quiet />
          </div>
        ) : null}
      </header>
      <div
        ref={logRef}
        role="log"
        // A scrollable log must be reachable by keyboard (axe: scrollable-region-focusable).
        // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
        tabIndex={0}
        aria-label={t('conversations.conversation')}
        className="min-w-0 flex-1 space-y-2 overflow-y-auto overflow-x-hidden p-3"
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
        // The reply box stays at the bottom of the screen (on a phone clear of the floating microphone).
        className="sticky bottom-0 space-y-2 rounded-b-2xl border-t border-slate-200 bg-white p-3 max-[699px]:pr-20"
        onSubmit={submitSends(send)}
      >
        {error ? <Alert tone="error">{error}</Alert> : null}
        {data && !data.canReply ? <Alert tone="info">{t('conversations.cannotReply')}</Alert> : null}
        <div className="flex gap-2">
          <SrLabel htmlFor={boxId}>{t('conversations.replyLabel')}</SrLabel>
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
            disabled={(!text.trim() && !file) || sending || !data?.canReply}
            className="rounded-lg bg-brand-700 px-4 text-sm font-semibold text-white disabled:bg-slate-400"
          >
            {t('conversations.send')}
          </button>
        </div>
        <ReplyAttachment
          chatbotId={chatbotId}
          value={file}
          onChange={(f) => {
            setFile(f);
            setError(null);
          }}
          onError={setError}
          disabled={!data?.canReply || sending}
        />
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
        // A player needs room: a bubble with audio or video is wide (a bare note collapsed to its dots).
        className={`min-w-0 max-w-[85%] space-y-1 rounded-2xl px-3 py-2 text-sm ${
          a?.type === 'audio' || a?.type === 'video' ? 'w-72' : ''
        } ${
          m.from === 'owner'
            ? 'bg-amber-100 text-amber-950'
            : m.from === 'bot'
              ? 'bg-brand-50 text-slate-900'
              : 'bg-slate-100 text-slate-900'
        }`}
      >
        <p className="text-xs font-semibold text-slate-700" data-testid="bubble-time">
          {t(`conversations.from.${m.from}`)} ·{' '}
          {new Intl.DateTimeFormat(i18n.language, { hour: '2-digit', minute: '2-digit' }).format(
            new Date(m.at),
          )}
        </p>
        {m.text && !hiddenText(m.text) ? (
          <p className="whitespace-pre-wrap [overflow-wrap:anywhere]">{m.text}</p>
        ) : null}
        {a?.type === 'image' ? (
          <img src={a.url} alt={a.name} className="max-h-60 max-w-full rounded-lg" />
        ) : null}
        {a?.type === 'audio' ? <MediaPlayer kind="audio" src={a.url} className="w-full" /> : null}
        {a?.type === 'video' ? (
          <MediaPlayer kind="video" src={a.url} className="max-h-60 w-full rounded-lg" />
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
