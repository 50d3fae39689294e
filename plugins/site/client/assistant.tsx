/**
 * The site assistant (spec 001 §2 "Marketing assistant chat widget", §4, §5, §8; issue 16 §5): a
 * React island the site script loads on the first click of the round button. Three states: the
 * button, the open panel (320 × 384 px, bottom right) and the minimised bar "Asistente Charla";
 * the cycle is button → panel → bar → button. Enter sends (Shift+Enter does not); sending is
 * disabled for an empty or blank message and while a reply is pending, with a typing indicator.
 * A non-OK reply or a network failure adds the spec's error text as a bot message.
 */
import { type FormEvent, type KeyboardEvent, useEffect, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { SiteContent } from '../content/types.ts';

/** The widget's texts in the page's language (plugins/site/content, `assistant`). */
export type AssistantTexts = SiteContent['assistant'];

type State = 'closed' | 'open' | 'minimised';
interface Message {
  role: 'user' | 'assistant';
  content: string;
}

/** Spec 001 §9: focus delay after opening, ms. */
const FOCUS_DELAY_MS = 300;

function Assistant({ texts, lang }: { texts: AssistantTexts; lang: string }) {
  const [state, setState] = useState<State>('open');
  const [messages, setMessages] = useState<Message[]>([{ role: 'assistant', content: texts.greeting }]);
  const [draft, setDraft] = useState('');
  const [pending, setPending] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const log = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (state !== 'open') return;
    const timer = setTimeout(() => input.current?.focus(), FOCUS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state]);
  // Keeps the newest message in view as messages arrive and the typing indicator comes and goes.
  const shown = messages.length + (pending ? 1 : 0);
  useEffect(() => {
    if (shown > 0) log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [shown]);

  const send = async () => {
    const text = draft.trim();
    if (!text || pending) return;
    const history = messages.slice(1);
    setMessages((m) => [...m, { role: 'user', content: text }]);
    setDraft('');
    setPending(true);
    try {
      const res = await fetch('/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ message: text, lang, history }),
      });
      if (!res.ok) throw new Error('Error en la respuesta');
      const { response } = (await res.json()) as { response: string };
      setMessages((m) => [...m, { role: 'assistant', content: response }]);
    } catch {
      setMessages((m) => [...m, { role: 'assistant', content: texts.error }]);
    } finally {
      setPending(false);
    }
  };
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void send();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter' && e.shiftKey) e.preventDefault();
  };

  if (state === 'closed') {
    return (
      <button
        type="button"
        className="assistant-fab"
        aria-label={texts.open}
        onClick={() => setState('open')}
      >
        <svg aria-hidden="true" viewBox="0 0 24 24" width="26" height="26">
          <path d="M4 5h16v10H9l-5 4z" fill="#fff" />
        </svg>
      </button>
    );
  }
  if (state === 'minimised') {
    return (
      <section className="assistant-bar" aria-label={texts.title}>
        <div className="assistant-head">
          <h2>
            <button type="button" onClick={() => setState('open')}>
              {texts.title}
            </button>
          </h2>
          <HeadButton label={texts.close} onClick={() => setState('closed')}>
            ✕
          </HeadButton>
        </div>
      </section>
    );
  }
  return (
    <section className="assistant-panel" role="dialog" aria-label={texts.title}>
      <div className="assistant-head">
        <h2>{texts.title}</h2>
        <HeadButton label={texts.minimise} onClick={() => setState('minimised')}>
          ▁
        </HeadButton>
        <HeadButton label={texts.close} onClick={() => setState('closed')}>
          ✕
        </HeadButton>
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must take focus (axe scrollable-region-focusable) */}
      <div className="assistant-log" ref={log} aria-live="polite" tabIndex={0}>
        {messages.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: messages are only ever appended
          <p key={i} className={`msg ${m.role === 'user' ? 'me' : 'bot'}`}>
            {m.content}
          </p>
        ))}
        {pending ? (
          <p className="typing" role="status">
            {texts.typing} <span aria-hidden="true">●●●</span>
          </p>
        ) : null}
      </div>
      <form className="assistant-form" onSubmit={onSubmit}>
        <input
          ref={input}
          value={draft}
          maxLength={1000}
          placeholder={texts.placeholder}
          aria-label={texts.placeholder}
          disabled={pending}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <button type="submit" className="btn btn-small" disabled={pending || !draft.trim()}>
          {texts.send}
        </button>
      </form>
    </section>
  );
}

/** Replaces the server-rendered button in `root` with the live widget, open. */
export function mountAssistant(root: HTMLElement): void {
  const texts = JSON.parse(root.dataset.texts ?? '{}') as AssistantTexts;
  createRoot(root).render(<Assistant texts={texts} lang={root.dataset.lang ?? 'es'} />);
}

/** A button of the assistant's head: an icon, named by `label` (its tooltip too). */
function HeadButton({ label, onClick, children }: { label: string; onClick: () => void; children: string }) {
  return (
    <button type="button" aria-label={label} title={label} onClick={onClick}>
      {children}
    </button>
  );
}
