/**
 * The test chat (spec 000 §2, §4, §8): a floating panel "Chat de {business}" where the owner talks
 * to their own bot through the same API followers use. Replies stream as they are written
 * (Server-Sent Events); files show inline (image, PDF link, audio and video players); a LIST offer
 * is kept and sent back so the owner can pick by number; "Ver Empática" shows the diagnostic panel
 * (state, alerts, recommendation, files offered and sent, the last 5 messages). Enter sends,
 * Shift+Enter adds a line; an empty message is ignored and the input waits while a reply is pending.
 * Panel height: 500 px, 600 px with diagnostics, 315 px on mobile (spec 000 §2). With no saved
 * bot the panel says so, under a title of its own, and offers /configure instead of an input.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Attachment, ContenedorEmpatico, FileRef } from '../../../engine/schemas.ts';
import { readEvents } from '../lib/sse.ts';
import { ChatBubble, ChatClose, MediaPlayer } from './ChatBubble.tsx';
import { ChatComposer } from './ChatComposer.tsx';
import { MicButton } from './MicButton.tsx';
import { OfflineBanner } from './OfflineBanner.tsx';

interface ChatMessage {
  text: string;
  isBot: boolean;
  attachment?: Attachment | null;
  error?: boolean;
  /** The reply spoken (issue 15): a `data:audio/ogg` address played inline. */
  voice?: string | null;
}

interface Reply {
  reply: string;
  attachment: Attachment | null;
  archivosEnviados: string[];
  contenedorEmpatico: Partial<ContenedorEmpatico> & { archivos: ContenedorEmpatico['archivos'] };
  offline: boolean;
  /** The passages of the bot's files used in the turn (issue 30 §3; with `?debug=1`). */
  passages?: PassageUse[];
}

/** A passage of the bot's files as the diagnostic panel shows it. */
interface PassageUse {
  fileName: string;
  page: number | null;
  heading: string;
  score: number;
}

/** The floating button and the panel. `chatbotId` is the owner's bot, or null when there is none. */
export function TestChat({ chatbotId }: { chatbotId: string | null }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [business, setBusiness] = useState('');
  const [messages, setMessages] = useState<ChatMessage[]>([]);
  const [input, setInput] = useState('');
  const [pending, setPending] = useState(false);
  const [streaming, setStreaming] = useState('');
  const [debug, setDebug] = useState(false);
  const [container, setContainer] = useState<Reply['contenedorEmpatico'] | null>(null);
  const [offered, setOffered] = useState<FileRef[]>([]);
  const [sent, setSent] = useState<string[]>([]);
  const [offline, setOffline] = useState(false);
  const [passages, setPassages] = useState<PassageUse[]>([]);
  // The owner chats as one follower for the whole tab, so a multi-turn dialogue (a booking that
  // asks for a name, then a phone) keeps its place between messages.
  const [visitorId] = useState(() => `test-${crypto.randomUUID()}`);
  const listRef = useRef<HTMLDivElement>(null);

  const say = useCallback(
    (text: string, error = false) => setMessages((m) => [...m, { text, isBot: true, error }]),
    [],
  );

  // Opening loads the bot's configuration (spec 000 §4) and shows its greeting.
  useEffect(() => {
    if (!open) return;
    setMessages([]);
    setContainer(null);
    setOffered([]);
    setSent([]);
    if (!chatbotId) {
      // An expected state of a new owner, not a failure: said by the bot, not in red.
      say(t('chat.errors.noBot'));
      return;
    }
    let cancelled = false;
    fetch(`/api/chatbot-config/${encodeURIComponent(chatbotId)}`)
      .then(async (res) => {
        if (cancelled) return;
        if (res.status === 404) {
          localStorage.removeItem('chatbotId');
          return say(t('chat.errors.notFound'), true);
        }
        if (!res.ok) return say(t('chat.errors.config'), true);
        const config = (await res.json()) as {
          id?: string;
          business_name?: string;
          greeting: string;
          offline?: boolean;
        };
        if (!config.id) return say(t('chat.errors.missingId'), true);
        if (!config.business_name) return say(t('chat.errors.invalid'), true);
        setBusiness(config.business_name);
        setOffline(config.offline === true);
        say(config.greeting);
      })
      .catch(() => !cancelled && say(t('chat.errors.network'), true));
    return () => {
      cancelled = true;
    };
  }, [open, chatbotId, t, say]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the bottom whenever the list grows
  useEffect(() => {
    listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  }, [messages, streaming]);

  /** A voice message: the bubble shows what the bot heard; a spoken reply plays inline. */
  /** What a refused turn tells the owner: the server's own text for a limit (429), else the spec's. */
  async function failureText(res: Response): Promise<string> {
    if (res.status === 404) return t('chat.errors.notFound');
    if (res.status === 429) {
      const body = (await res.json().catch(() => null)) as { error?: string } | null;
      if (body?.error) return body.error;
    }
    return t('chat.errors.message');
  }

  async function sendVoice(audio: Blob) {
    if (pending || !chatbotId) return;
    setMessages((m) => [...m, { text: '🎤 …', isBot: false }]);
    setPending(true);
    try {
      const form = new FormData();
      form.append('visitorId', visitorId);
      form.append('channel', 'test');
      form.append('messageId', crypto.randomUUID());
      form.append('audio', audio, 'voz.webm');
      const res = await fetch(`/api/chatbot-voice/${encodeURIComponent(chatbotId)}`, {
        method: 'POST',
        body: form,
      });
      if (!res.ok) {
        say(await failureText(res), true);
        return;
      }
      const reply = (await res.json()) as Reply & { heard: string; voice: string | null };
      const heard = `🎤 ${reply.heard.startsWith('[') ? '' : reply.heard}`.trim();
      setMessages((m) => [
        ...m.slice(0, -1),
        { text: heard, isBot: false },
        { text: reply.reply, isBot: true, attachment: reply.attachment, voice: reply.voice },
      ]);
      setSent(reply.archivosEnviados);
      setOffline(reply.offline);
    } catch {
      say(t('chat.errors.network'), true);
    } finally {
      setPending(false);
    }
  }

  async function send() {
    const text = input.trim();
    if (!text || pending || !chatbotId) return;
    const history = messages
      .filter((m) => !m.error)
      .map((m) => ({ role: m.isBot ? 'assistant' : 'user', content: m.text }));
    setMessages((m) => [...m, { text, isBot: false }]);
    setInput('');
    setPending(true);
    setStreaming('');
    try {
      const res = await fetch(
        `/api/chatbot-message/${encodeURIComponent(chatbotId)}${debug ? '?debug=1' : ''}`,
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({
            userMessage: text,
            messageHistory: history.slice(-20),
            archivosMostrados: offered,
            archivosEnviados: sent,
            channel: 'test',
            visitorId,
          }),
        },
      );
      if (!res.ok) {
        say(await failureText(res), true);
        return;
      }
      let final: Reply | null = null;
      let failed = false;
      await readEvents(res, (event, data) => {
        if (event === 'token') setStreaming((s) => s + (data as { text: string }).text);
        else if (event === 'done') final = data as Reply;
        else if (event === 'error') failed = true;
      });
      const reply = final as Reply | null;
      if (failed || !reply) {
        say(t('chat.errors.message'), true);
        return;
      }
      setMessages((m) => [...m, { text: reply.reply, isBot: true, attachment: reply.attachment }]);
      setSent(reply.archivosEnviados);
      const { archivos } = reply.contenedorEmpatico;
      setOffered(archivos.action === 'LIST' ? archivos.lista : []);
      setContainer(reply.contenedorEmpatico);
      setOffline(reply.offline);
      setPassages(reply.passages ?? []);
    } catch {
      say(t('chat.errors.network'), true);
    } finally {
      setStreaming('');
      setPending(false);
    }
  }

  if (!open) {
    return (
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="fixed bottom-[calc(var(--nav-bottom,0px)+1rem)] left-4 z-10 inline-flex min-[900px]:left-60 items-center gap-2 rounded-full bg-slate-900 px-5 py-3 text-sm font-semibold text-white shadow-lg hover:bg-slate-800"
      >
        {t('chat.open')}
      </button>
    );
  }

  const title = chatbotId ? t('chat.title', { business }) : t('chat.noBotTitle');
  return (
    <section
      aria-label={title}
      className={`fixed inset-x-2 bottom-2 z-30 flex h-[315px] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl sm:inset-x-auto sm:right-4 sm:bottom-4 sm:w-[420px] ${debug ? 'sm:h-[600px]' : 'sm:h-[500px]'}`}
    >
      <header className="flex items-center justify-between gap-2 bg-brand-700 px-4 py-2.5 text-white">
        <h2 className="truncate text-sm font-semibold">{title}</h2>
        <div className="flex items-center gap-3">
          {chatbotId ? (
            <label className="flex items-center gap-1.5 text-xs">
              <input
                type="checkbox"
                checked={debug}
                onChange={(e) => setDebug(e.target.checked)}
                className="accent-white"
              />
              {t('chat.empathy')}
            </label>
          ) : null}
          <ChatClose label={t('chat.close')} onClose={() => setOpen(false)} size="px-1 text-lg" />
        </div>
      </header>
      <OfflineBanner offline={offline} t={t} />
      {debug ? <Diagnostics container={container} offline={offline} passages={passages} /> : null}
      <div
        ref={listRef}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
        className="flex-1 space-y-2 overflow-y-auto bg-slate-50 p-3"
        aria-live="polite"
      >
        {messages.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only
          <Bubble key={i} message={m} />
        ))}
        {pending ? (
          streaming ? (
            <Bubble message={{ text: streaming, isBot: true }} />
          ) : (
            <p className="text-xs text-slate-500" role="status">
              {t('chat.typing')}
            </p>
          )
        ) : null}
      </div>
      {chatbotId ? (
        <ChatComposer
          value={input}
          onChange={setInput}
          onSend={() => void send()}
          pending={pending}
          extra={<MicButton disabled={pending} onRecorded={(audio) => void sendVoice(audio)} />}
        />
      ) : (
        <div className="border-t border-slate-200 p-2">
          <a
            href="/configure"
            className="flex items-center justify-center rounded-lg bg-brand-700 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-800"
          >
            {t('chat.noBotAction')}
          </a>
        </div>
      )}
    </section>
  );
}

function Bubble({ message }: { message: ChatMessage }) {
  const { t } = useTranslation();
  const a = message.attachment;
  return (
    <ChatBubble message={message}>
      {a?.type === 'image' ? <img src={a.url} alt={a.name} className="max-h-48 rounded-lg" /> : null}
      {a?.type === 'pdf' || a?.type === 'document' ? (
        <a
          href={a.url}
          target="_blank"
          rel="noopener"
          className="flex items-center gap-2 rounded-lg border border-slate-200 px-2 py-1.5 font-medium text-brand-700 hover:bg-brand-50"
        >
          📄 {a.name}
          <span className="sr-only">{t('chat.openFile')}</span>
        </a>
      ) : null}
      {a?.type === 'audio' ? <MediaPlayer kind="audio" src={a.url} className="w-56" /> : null}
      {a?.type === 'video' ? <MediaPlayer kind="video" src={a.url} className="max-h-48 rounded-lg" /> : null}
      {message.voice?.startsWith('data:audio/') ? (
        // biome-ignore lint/a11y/useMediaCaption: the spoken copy of the reply written above it
        <audio controls autoPlay src={message.voice} className="w-56" data-testid="voice-reply" />
      ) : null}
    </ChatBubble>
  );
}

function Diagnostics({
  container,
  offline,
  passages,
}: {
  container: Reply['contenedorEmpatico'] | null;
  offline: boolean;
  passages: PassageUse[];
}) {
  const { t } = useTranslation();
  const a = container?.analisisInterno;
  const names = (list: FileRef[] | undefined) =>
    list?.length ? list.map((f) => f.file_name).join(', ') : t('chat.none');
  const sentNames = a ? a.archivosDisponibles.filter((f) => a.archivosEnviados.includes(f.id)) : [];
  return (
    <section
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
      tabIndex={0}
      aria-label={t('chat.diagnostics')}
      className="max-h-24 space-y-1 overflow-y-auto border-b sm:max-h-44 border-slate-200 bg-amber-50 px-4 py-2 text-xs text-slate-800"
      data-testid="diagnostics"
    >
      <p className="font-semibold">{t('chat.diagnostics')}</p>
      {offline ? <p className="text-amber-800">{t('chat.offline')}</p> : null}
      {/* First: what the reply was made from (issue 30 §3), above the fold of the small panel. */}
      <p>
        {t('chat.passages')}: {passages.length ? '' : t('chat.none')}
      </p>
      {passages.length ? (
        <ol className="list-decimal pl-5" data-testid="passages">
          {passages.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, ordered list
            <li key={i}>
              {p.page ? t('chat.passageAt', { file: p.fileName, page: p.page }) : p.fileName}
              {p.heading ? ` · ${p.heading}` : ''} ({t('chat.passageScore')} {p.score})
            </li>
          ))}
        </ol>
      ) : null}
      <p>
        {t('chat.state')}:{' '}
        <strong>
          {container?.estadoEmpatico ? t(`chat.states.${container.estadoEmpatico.estado}`) : '—'}
        </strong>
        {container?.estadoEmpatico ? ` (${t('chat.score')} ${container.estadoEmpatico.puntuacion})` : ''}
      </p>
      <p>
        {t('chat.alerts')}: {a?.alertas.length ? a.alertas.join(' · ') : t('chat.none')}
      </p>
      <p>
        {t('chat.recommendation')}: {a?.recomendacionAsistente ?? '—'}
      </p>
      <p>
        {t('chat.offered')}: {names(container?.archivos.action === 'LIST' ? container.archivos.lista : [])}
      </p>
      <p>
        {t('chat.sent')}: {names(sentNames)}
      </p>
      <p>{t('chat.history')}:</p>
      <ol className="list-decimal pl-5">
        {(container?.historialReciente ?? []).map((h, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed, ordered list
          <li key={i}>
            <span className="font-medium">{h.role === 'user' ? t('chat.you') : '🤖'}</span>: {h.content}
          </li>
        ))}
      </ol>
    </section>
  );
}
