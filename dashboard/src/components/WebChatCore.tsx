/**
 * The web chat's core (spec 001 §2 "Floating chat window on the web channel", §4 "Web chat", §5):
 * the turn logic the IALanding and the owner's try-out window share, the view of a sent file (image,
 * PDF, audio, video) and the LIST offer buttons. Nothing here reaches the app shell (router, query
 * client, the i18n instance): texts come in as `t`, so the IALanding's island stays small.
 * - Turns go to `POST /api/web/:key/message` (the web channel: refused with 403 while the service is
 *   off or the owner has no days), streamed as Server-Sent Events; a visitor id kept in the browser.
 * - Sending adds the user's message and shows "Escribiendo..." until the reply; the input waits while
 *   a reply is pending; a message that is empty after trimming is not sent.
 * - A LIST offer is kept and sent back as `archivosMostrados` (any other action clears it), with the
 *   files already sent as `archivosEnviados`, so a pick by number works (spec 000 §7).
 * - The IALanding's chat (`channel` `ialanding`) shows what the business sends the visitor (an
 *   owner's reply, a reminder) within about a second: `listenPushed` (lib/web-chat.ts, issue 26 §2).
 * - Issue 27 §3: the owner's messages come as a person (`person`, their name or "Equipo de …");
 *   `person` (the hook's) is true while a person answers; a quiet turn (the bot paused) adds no empty
 *   answer, only, once per pause, the note `landing.personNote`; a returning visitor's IALanding
 *   restores their thread from the server (`restoreThread`).
 */
import type { TFunction } from 'i18next';
import { type ReactNode, useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment, FileRef, FileType, HistoryItem } from '../../../engine/schemas.ts';
import { readEvents } from '../lib/sse.ts';
import {
  knownVisitor,
  listenPushed,
  type PushedMessage,
  restoreThread,
  visitorId,
  type WebReply,
} from '../lib/web-chat.ts';
import { MediaPlayer } from './ChatBubble.tsx';

/** One message of a web chat (spec 001 §3 "Chat message (client)"). */
export interface WebChatMessage {
  text: string;
  isBot: boolean;
  attachment?: Attachment | null;
  /** Files the bot offered to choose from (a LIST reply). */
  offers?: FileRef[];
  error?: boolean;
  /** The reply spoken (issue 15, "Respuestas de voz"): a `data:audio/ogg` address played inline. */
  voice?: string | null;
  /** Issue 27 §3: the owner's message, shown as this person (not the bot). */
  person?: string | null;
  /** The note of a quiet turn ("a person will reply"), not an answer. */
  note?: boolean;
}

/** A message from the server (pushed or restored) as a chat message. */
function serverMessage(m: PushedMessage): WebChatMessage {
  return {
    text: m.text,
    isBot: m.from !== 'user',
    attachment: m.attachment ?? null,
    ...(m.from === 'owner' ? { person: m.name ?? '' } : {}),
  };
}

/** Messages kept as history for the next turn. */
const HISTORY_SENT = 20;

/**
 * A web chat's state and its `send`. `t` gives the texts (the IALanding passes its bot language's).
 * `send` resolves to the bot's message (or the error shown), or null when nothing was sent. On the
 * IALanding, `pushed` is the latest message the business sent the visitor (also in `messages`).
 */
export function useWebChat(chatKey: string | null, t: TFunction, channel: 'web' | 'ialanding' = 'web') {
  const [messages, setMessages] = useState<WebChatMessage[]>([]);
  const [pending, setPending] = useState(false);
  const [streaming, setStreaming] = useState('');
  const busy = useRef(false);
  const offered = useRef<FileRef[]>([]);
  const sent = useRef<string[]>([]);
  const history = useRef<HistoryItem[]>([]);
  const [pushed, setPushed] = useState<WebChatMessage | null>(null);
  const [wrote, setWrote] = useState(false);
  const [person, setPerson] = useState(false);
  const noted = useRef(false);
  /** A person answers (an owner's message, a quiet turn) or the bot again (issue 27 §3). */
  const answering = useCallback((on: boolean) => {
    if (!on) noted.current = false;
    setPerson(on);
  }, []);

  // The IALanding listens for what the business sends (the owner's try-out window does not), once
  // the visitor has written here or before: a first visit that only reads holds no stream. A
  // returning visitor's thread is restored first (issue 27 §3), so the stream starts after it.
  const live = channel === 'ialanding' && !!chatKey && (wrote || knownVisitor(chatKey));
  const returning = useRef<boolean | null>(null);
  returning.current ??= channel === 'ialanding' && !!chatKey && knownVisitor(chatKey);
  useEffect(() => {
    if (!live || !chatKey) return;
    let gone = false;
    let stop: (() => void) | null = null;
    const shown = (m: PushedMessage) => {
      const message = serverMessage(m);
      setMessages((all) => [...all, message]);
      setPushed(message);
      // A broadcast (issue 27 §5) is the business's announcement: no person took the chat over.
      if (m.from === 'owner' && !m.broadcast) answering(true);
    };
    const restore = returning.current ? restoreThread(chatKey) : Promise.resolve([]);
    void restore.then((past) => {
      if (gone) return;
      returning.current = false;
      if (past.length) setMessages((all) => [...past.map(serverMessage), ...all]);
      const said = past.filter((m) => m.from !== 'user' && !m.broadcast).at(-1);
      // The owner wrote last: the IALanding shows that message, and that a person answers.
      if (said?.from === 'owner') {
        setPushed(serverMessage(said));
        answering(true);
      }
      stop = listenPushed(chatKey, shown);
    });
    return () => {
      gone = true;
      stop?.();
    };
  }, [chatKey, live, answering]);

  const send = useCallback(
    async (text: string, shown = text): Promise<WebChatMessage | null> => {
      const userMessage = text.trim();
      if (!userMessage || busy.current) return null;
      busy.current = true;
      setWrote(true);
      setMessages((m) => [...m, { text: shown.trim() || userMessage, isBot: false }]);
      setPending(true);
      setStreaming('');
      const answer = (message: WebChatMessage) => {
        setMessages((m) => [...m, message]);
        return message;
      };
      try {
        if (!chatKey) return answer({ text: t('chat.errors.missingId'), isBot: true, error: true });
        const res = await fetch(`/api/web/${encodeURIComponent(chatKey)}/message`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
          body: JSON.stringify({
            userMessage,
            visitorId: visitorId(chatKey),
            messageHistory: history.current.slice(-HISTORY_SENT),
            archivosMostrados: offered.current,
            archivosEnviados: sent.current,
            channel,
          }),
        });
        if (!res.ok) {
          const body = (await res.json().catch(() => ({}))) as { error?: string };
          const text =
            res.status === 403 && body.error
              ? body.error
              : res.status === 404
                ? t('landing.errors.noBot')
                : t('chat.errors.message');
          return answer({ text, isBot: true, error: true });
        }
        let final: WebReply | null = null;
        let failed = false;
        if ((res.headers.get('content-type') ?? '').includes('text/event-stream')) {
          await readEvents(res, (event, data) => {
            if (event === 'token') setStreaming((s) => s + (data as { text: string }).text);
            else if (event === 'done') final = data as WebReply;
            else if (event === 'error') failed = true;
          });
        } else {
          final = (await res.json()) as WebReply;
        }
        const reply = final as WebReply | null;
        if (failed || !reply) return answer({ text: t('chat.errors.message'), isBot: true, error: true });
        history.current = [...history.current, { role: 'user', content: userMessage }];
        if (reply.silent) {
          // The owner took over: no empty answer; the first time, a note that a person will reply.
          answering(true);
          const note: WebChatMessage = { text: t('landing.personNote'), isBot: true, note: true };
          if (!noted.current) setMessages((m) => [...m, note]);
          noted.current = true;
          return note;
        }
        answering(false);
        const { archivos } = reply.contenedorEmpatico;
        offered.current = archivos.action === 'LIST' ? archivos.lista : [];
        sent.current = reply.archivosEnviados;
        history.current = [...history.current, { role: 'assistant', content: reply.reply }];
        return answer({
          text: reply.reply,
          isBot: true,
          attachment: reply.attachment,
          ...(reply.voice ? { voice: reply.voice } : {}),
          ...(archivos.action === 'LIST' ? { offers: archivos.lista } : offersOf(reply.choices)),
        });
      } catch {
        return answer({ text: t('chat.errors.network'), isBot: true, error: true });
      } finally {
        busy.current = false;
        setStreaming('');
        setPending(false);
      }
    },
    [chatKey, t, channel, answering],
  );

  return { messages, pending, streaming, send, pushed, person };
}

/** What a file view shows: a sent attachment or a library file. */
export interface ShownFile {
  url: string;
  type: FileType;
  name: string;
}

/** A file opened in a new tab (a PDF below its preview, a document alone): its name and `action`. */
function FileLink({ file, action }: { file: ShownFile; action: ReactNode }) {
  return (
    <a
      href={file.url}
      target="_blank"
      rel="noopener"
      className="flex items-center gap-2 rounded-lg border border-slate-200 bg-white px-3 py-2 font-medium text-brand-800 hover:bg-brand-50"
    >
      <span aria-hidden="true">📄</span>
      <span className="min-w-0 flex-1 truncate">{file.name}</span>
      {action}
    </a>
  );
}

/**
 * A file shown in a chat (`compact`) or in the IALanding's content area: the image (at most 600 px
 * high, spec 001 §9), the PDF (embedded on wide screens, always with a link to open it), or the audio
 * and video players.
 */
export function FileView({ file, compact = false, t }: { file: ShownFile; compact?: boolean; t: TFunction }) {
  switch (file.type) {
    case 'image':
      return (
        <img
          src={file.url}
          alt={file.name}
          className={`rounded-xl object-contain ${compact ? 'max-h-48' : 'mx-auto block max-h-[600px] w-auto max-w-full'}`}
        />
      );
    case 'pdf':
      return (
        <div className="space-y-2">
          {compact ? null : (
            <object
              data={file.url}
              type="application/pdf"
              aria-label={file.name}
              className="hidden h-[70vh] max-h-[600px] w-full rounded-xl border border-slate-200 min-[700px]:block"
            />
          )}
          <FileLink
            file={file}
            action={<span className="shrink-0 text-xs text-slate-600">{t('landing.openPdf')}</span>}
          />
        </div>
      );
    case 'document':
      return <FileLink file={file} action={<span className="sr-only">{t('chat.openFile')}</span>} />;
    case 'audio':
      return (
        <MediaPlayer kind="audio" src={file.url} label={file.name} className={compact ? 'w-56' : 'w-full'} />
      );
    case 'video':
      return (
        <MediaPlayer
          kind="video"
          src={file.url}
          label={file.name}
          className={`rounded-xl bg-black ${compact ? 'max-h-48' : 'max-h-[600px] w-full'}`}
        />
      );
  }
}

/** Issue 29: a plugin's choices (free slots) shown as a LIST's buttons; a pick by number answers them. */
function offersOf(choices: WebReply['choices']): { offers?: FileRef[] } {
  if (!choices?.length) return {};
  return {
    offers: choices.map((c) => ({ id: c.id, file_name: c.label, keyword: c.label, file_type: 'pdf' })),
  };
}

/** The files a LIST reply offers, as numbered buttons; a click picks by number. */
export function OfferButtons({
  offers,
  onPick,
  t,
  disabled = false,
}: {
  offers: FileRef[];
  onPick: (n: number, label: string) => void;
  t: TFunction;
  disabled?: boolean;
}) {
  return (
    <ul className="flex flex-wrap gap-2" aria-label={t('landing.offers')}>
      {offers.map((f, i) => {
        const label = f.keyword.split(',')[0]?.trim() || f.file_name;
        return (
          <li key={f.id}>
            <button
              type="button"
              disabled={disabled}
              onClick={() => onPick(i + 1, label)}
              className="rounded-full border border-brand-600 bg-white px-3 py-1 text-sm font-medium text-brand-800 hover:bg-brand-50 disabled:opacity-50"
            >
              {`${i + 1}. ${label}`}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
