/**
 * The owner's try-out window of the web chat (spec 001 §2 "Floating chat window on the web
 * channel"); its turn logic and file views are WebChatCore.tsx's, shared with the IALanding.
 */
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { WebConfig } from '../lib/web-chat.ts';
import { ChatBubble, ChatClose } from './ChatBubble.tsx';
import { ChatComposer } from './ChatComposer.tsx';
import { OfflineBanner } from './OfflineBanner.tsx';
import { FileView, OfferButtons, useWebChat, type WebChatMessage } from './WebChatCore.tsx';

/**
 * The owner's try-out of the web bot on /charla-web: a floating button and a chat window with the
 * business name and "Asistente IA", talking to the bot through the web channel exactly as a
 * visitor's widget does. Sizes of the spec's web chat widget (001 §9): 450x700 px, 400x650 px from
 * 641 to 1024 px wide, 80vh up to 640 px and 85vh up to 480 px, never above 95vh. Like the widget it
 * stays open after a reply (spec 001 §4's close after 1 s is the IALanding chat bar's, whose answers
 * show above it; here the reply shows nowhere else).
 */
export function WebChatPanel({ chatKey, business }: { chatKey: string | null; business: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState('');
  const { messages, pending, streaming, send } = useWebChat(chatKey, t);
  const [config, setConfig] = useState<WebConfig | null>(null);
  const listRef = useRef<HTMLDivElement>(null);

  // Opening reads what a visitor's widget would show: the greeting and whether the chat is available.
  useEffect(() => {
    if (!open || !chatKey) return;
    let cancelled = false;
    fetch(`/api/web/${encodeURIComponent(chatKey)}/config`)
      .then(async (res) => {
        if (!cancelled && res.ok) setConfig((await res.json()) as WebConfig);
      })
      .catch(() => {});
    return () => {
      cancelled = true;
    };
  }, [open, chatKey]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll to the bottom whenever the list grows
  useEffect(() => {
    listRef.current?.scrollTo({ top: listRef.current.scrollHeight });
  }, [messages, streaming, open]);

  const submit = () => {
    if (!input.trim() || pending) return;
    setInput('');
    void send(input);
  };

  if (!open) {
    return (
      // In the page's flow below the channel (issue 29: it never covers the screen's text).
      <div className="mx-auto max-w-5xl px-4 pb-6">
        <button
          type="button"
          onClick={() => setOpen(true)}
          disabled={!chatKey}
          className="inline-flex items-center gap-2 rounded-full bg-slate-900 px-5 py-3 text-sm font-semibold text-white shadow-lg hover:bg-slate-800 disabled:bg-slate-400"
        >
          <span aria-hidden="true">💬</span>
          {t('web.chat.open')}
        </button>
      </div>
    );
  }

  return (
    <section
      aria-label={t('web.chat.title', { business })}
      className="fixed inset-x-2 bottom-2 z-40 flex h-[80vh] max-h-[95vh] flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl max-[480px]:h-[85vh] min-[641px]:inset-x-auto min-[641px]:right-4 min-[641px]:bottom-4 min-[641px]:h-[650px] min-[641px]:w-[400px] min-[1025px]:h-[700px] min-[1025px]:w-[450px]"
      data-testid="web-chat"
    >
      <header className="flex items-center justify-between gap-2 bg-brand-700 px-4 py-3 text-white">
        <div className="min-w-0">
          <h2 className="truncate text-sm font-semibold">{business}</h2>
          <p className="text-xs text-white/90">{t('web.chat.assistant')}</p>
        </div>
        <ChatClose label={t('chat.close')} onClose={() => setOpen(false)} size="px-2 text-xl" />
      </header>
      <OfflineBanner offline={config?.offline} t={t} />
      <div
        ref={listRef}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1, axe scrollable-region-focusable)
        tabIndex={0}
        aria-live="polite"
        className="flex-1 space-y-2 overflow-y-auto bg-slate-50 p-3"
      >
        <p className="text-center text-xs text-slate-600">{t('web.chat.hint')}</p>
        {config ? <Bubble message={{ text: config.greeting, isBot: true }} t={t} /> : null}
        {config && !config.available && config.unavailableText ? (
          <Bubble message={{ text: config.unavailableText, isBot: true, error: true }} t={t} />
        ) : null}
        {messages.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages are append-only
          <Bubble key={i} message={m} t={t} onPick={(n, label) => void send(String(n), label)} />
        ))}
        {pending ? (
          streaming ? (
            <Bubble message={{ text: streaming, isBot: true }} t={t} />
          ) : (
            <p className="text-xs text-slate-600" role="status">
              {t('chat.typing')}
            </p>
          )
        ) : null}
      </div>
      <ChatComposer value={input} onChange={setInput} onSend={() => submit()} pending={pending} />
    </section>
  );
}

/** A chat bubble, with its file and the offered files as buttons. */
function Bubble({
  message,
  t,
  onPick,
}: {
  message: WebChatMessage;
  t: TFunction;
  onPick?: (n: number, label: string) => void;
}) {
  const a = message.attachment;
  return (
    <ChatBubble message={message} testId={message.isBot ? 'bot-message' : 'user-message'}>
      {a ? <FileView file={a} compact t={t} /> : null}
      {message.voice?.startsWith('data:audio/') ? (
        // biome-ignore lint/a11y/useMediaCaption: the spoken copy of the reply written above it
        <audio controls autoPlay src={message.voice} className="w-full max-w-64" />
      ) : null}
      {message.offers?.length && onPick ? (
        <OfferButtons offers={message.offers} onPick={onPick} t={t} />
      ) : null}
    </ChatBubble>
  );
}
