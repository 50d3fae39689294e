/**
 * The public IALanding's page (spec 001 §2, §3, §4, §8; issue 6), shared by the server's render
 * (adapters/web/ialanding-page.tsx), its hydrating island (ialanding-island.tsx) and the app's route
 * (routes/ialanding.$slug.tsx, which documents the page). Texts come in as `t` in the bot's language,
 * so nothing here reaches the app's i18n instance, router or query client. Issue 27 §3: while the
 * owner answers, their messages (text or voice note) and the note that a person will reply show in
 * an amber card under the person's name, never as an empty bot answer.
 */
import type { TFunction } from 'i18next';
import { useEffect, useRef, useState } from 'react';
import type { Ialanding, IalandingError, IalandingFile } from '../lib/web-chat.ts';
import { ChatBar, Content, type DynamicItem, fileTitle, Library, Pending } from './IalandingParts.tsx';
import { Logo } from './Logo.tsx';
import { VisitorPushOffer } from './VisitorPushOffer.tsx';
import { useWebChat } from './WebChatCore.tsx';

/**
 * Why the landing cannot show, with the spec's texts (001 §8): "URL no válida", "IALanding no
 * encontrada", "No se encontró la configuración del bot para este IALanding.", "Error cargando la
 * página"; a retry button for a failed load when `onRetry` is given.
 */
export function IalandingErrorPanel({
  reason,
  t,
  onRetry,
}: {
  reason: IalandingError;
  t: TFunction;
  onRetry?: () => void;
}) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <div
        role="alert"
        className="w-full max-w-md space-y-3 rounded-2xl border border-red-200 bg-white p-6 shadow-sm"
        data-testid="ialanding-error"
      >
        <p className="text-4xl" aria-hidden="true">
          🔍
        </p>
        <h1 className="text-xl font-bold text-slate-900">{t(`landing.errors.${reason}`)}</h1>
        <p className="text-sm text-slate-600">{t('landing.errorText')}</p>
        {reason === 'load' && onRetry ? (
          <button
            type="button"
            onClick={onRetry}
            className="rounded-lg border border-slate-300 px-4 py-2 text-sm font-semibold hover:bg-slate-50"
          >
            {t('web.retry')}
          </button>
        ) : null}
      </div>
      <a href="/" className="flex items-center gap-2 text-sm font-semibold text-brand-800">
        <Logo />
        {t('landing.madeWith')}
      </a>
    </main>
  );
}

/**
 * The IALanding of a loaded landing, in its bot's language `lang` with that language's `t`. Rendered
 * to HTML by the server (adapters/web/ialanding-page.tsx) and hydrated by the island
 * (ialanding-island.tsx), or rendered by the app's route when reached inside the app.
 */
export function Landing({
  data,
  lang,
  t,
  typed = '',
}: {
  data: Ialanding;
  lang: string;
  t: TFunction;
  /** Text the visitor typed into the server's HTML before it was hydrated (the island's). */
  typed?: string;
}) {
  const chat = useWebChat(data.charla_key, t, 'ialanding');
  const welcome: DynamicItem = {
    type: 'welcome',
    title: t('landing.welcomeTitle'),
    description: data.greeting,
  };
  const [item, setItem] = useState<DynamicItem>(welcome);
  /**
   * Issue 27 §3: what shows is a person's (the owner's message, or the note that a person will
   * reply): the card is amber, as the widget's person bubble, not the bot's white answer.
   */
  const [byPerson, setByPerson] = useState(false);
  const [question, setQuestion] = useState('');
  const [input, setInput] = useState('');
  const contentRef = useRef<HTMLElement>(null);
  // Whether the page is live: false in the server's HTML, true once hydrated (`data-ready`).
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);

  // The page's language and title while it shows (the server sends the same title in the HTML).
  useEffect(() => {
    const before = { title: document.title, lang: document.documentElement.lang };
    document.title = `${data.business_name} · ${t('web.chat.assistant')}`;
    document.documentElement.lang = lang;
    return () => {
      document.title = before.title;
      document.documentElement.lang = before.lang;
    };
  }, [data.business_name, lang, t]);

  // What the business sent the visitor (an owner's reply, a reminder) shows as it arrives; the
  // owner's under their name (issue 27 §3), with its file.
  useEffect(() => {
    const m = chat.pushed;
    if (!m) return;
    const title = m.person || data.business_name;
    const a = m.attachment;
    setByPerson(m.person !== undefined && m.person !== null);
    setItem(
      a
        ? { type: 'file', title, description: m.text, url: a.url, fileType: a.type }
        : { type: 'text', title, description: m.text },
    );
  }, [chat.pushed, data.business_name]);

  const reveal = () => {
    // The answer shows above the chat bar: bring the content area into view (phones scroll far).
    const box = contentRef.current;
    if (box && box.getBoundingClientRect().top < 0)
      box.scrollIntoView({ behavior: 'smooth', block: 'start' });
  };

  async function ask(text: string, shown = text) {
    if (!text.trim() || chat.pending || !data.available) return;
    setQuestion(shown.trim());
    reveal();
    const message = await chat.send(text, shown);
    if (!message) return;
    const a = message.attachment;
    setByPerson(Boolean(message.note));
    // A quiet turn (the owner took over): the note that a person will reply, under that heading.
    if (message.note) {
      setItem({
        type: 'text',
        title: t('landing.person'),
        description: message.text,
        question: shown.trim(),
      });
      return;
    }
    setItem(
      a
        ? {
            type: 'file',
            title: a.name,
            description: message.text,
            url: a.url,
            fileType: a.type,
            question: shown.trim(),
          }
        : {
            type: 'text',
            title: t('landing.answerTitle'),
            description: message.text,
            question: shown.trim(),
            ...(message.offers ? { offers: message.offers } : {}),
            ...(message.error ? { error: true } : {}),
          },
    );
  }

  function submit() {
    if (!input.trim() || chat.pending) return;
    const text = input;
    setInput('');
    void ask(text);
  }

  function show(file: IalandingFile) {
    setQuestion('');
    setByPerson(false);
    setItem({
      type: 'file',
      title: fileTitle(file),
      // The context's first sentence is the title already; the rest, if any, below it.
      description: file.context.replace(/\s+/g, ' ').trim().slice(fileTitle(file).length).trim(),
      url: file.publicUrl,
      fileType: file.file_type,
    });
    contentRef.current?.scrollIntoView({ behavior: 'smooth', block: 'start' });
  }

  const initial = data.business_name.trim().charAt(0).toUpperCase() || '?';
  return (
    <div
      className="flex min-h-dvh flex-col bg-gradient-to-b from-brand-50 via-white to-slate-50"
      lang={lang}
      data-testid="ialanding"
      data-ready={ready ? 'true' : undefined}
    >
      <header className="sticky top-0 z-20 border-b border-slate-200 bg-white/90 backdrop-blur">
        <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3">
          <span
            aria-hidden="true"
            className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-brand-700 text-lg font-bold text-white"
          >
            {initial}
          </span>
          <div className="min-w-0">
            <p className="truncate text-lg font-bold text-slate-900" data-testid="ialanding-business">
              {data.business_name}
            </p>
            <p className="flex items-center gap-1.5 text-xs text-slate-600">
              <span
                aria-hidden="true"
                className={`h-2 w-2 rounded-full ${chat.person ? 'bg-amber-400' : data.available ? 'bg-emerald-500' : 'bg-slate-400'}`}
              />
              {chat.person ? t('landing.person') : t('web.chat.assistant')}
            </p>
          </div>
        </div>
      </header>
      <main className="mx-auto w-full max-w-5xl flex-1 space-y-8 px-4 pt-6 pb-48 min-[700px]:pt-10">
        <section className="space-y-3 text-center">
          <p className="inline-block rounded-full bg-brand-100 px-3 py-1 text-xs font-semibold text-brand-800">
            {t('landing.badge')}
          </p>
          <h1 className="text-3xl font-extrabold tracking-tight text-slate-900 min-[700px]:text-5xl">
            {t('landing.heroTitle', { business: data.business_name })}
          </h1>
          <p className="mx-auto max-w-2xl text-base text-slate-700 min-[700px]:text-lg">
            {t('landing.heroSubtitle')}
          </p>
          {data.public_description ? (
            <p
              className="mx-auto line-clamp-3 max-w-2xl text-sm text-slate-600"
              data-testid="ialanding-description"
            >
              {data.public_description}
            </p>
          ) : null}
        </section>
        <section
          ref={contentRef}
          aria-label={t('landing.contentLabel')}
          aria-live="polite"
          className={`scroll-mt-20 rounded-3xl border p-5 shadow-sm min-[700px]:p-8 ${
            byPerson && !chat.pending ? 'border-amber-300 bg-amber-50' : 'border-slate-200 bg-white'
          }`}
          data-testid="ialanding-content"
          data-type={chat.pending ? 'pending' : item.type}
          data-from={byPerson && !chat.pending ? 'person' : undefined}
        >
          {chat.pending ? (
            <Pending question={question} streaming={chat.streaming} t={t} />
          ) : (
            <Content
              item={item}
              t={t}
              onPick={(n, label) => void ask(String(n), label)}
              busy={chat.pending}
            />
          )}
        </section>
        {/* Issue 28 §2: browser notifications offered only once the visitor has written. */}
        {data.charla_key && chat.messages.some((m) => !m.isBot) ? (
          <VisitorPushOffer chatKey={data.charla_key} t={t} />
        ) : null}
        <Library files={data.files} onShow={show} t={t} />
      </main>
      <ChatBar
        t={t}
        input={input}
        setInput={setInput}
        submit={submit}
        pending={chat.pending}
        available={data.available}
        unavailableText={data.unavailableText}
        typed={typed}
      />
    </div>
  );
}
