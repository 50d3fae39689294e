/**
 * The pieces of the public IALanding page (routes/ialanding.$slug.tsx): the dynamic content area
 * (spec 001 §3 "Dynamic content item": welcome, text or file), the visitor's question and the
 * pending answer, the file library grid with "Ver →", and the bottom chat bar with "Las respuestas
 * se mostrarán arriba".
 */
import type { TFunction } from 'i18next';
import { useEffect } from 'react';
import type { FileType } from '../../../engine/schemas.ts';
import type { IalandingFile } from '../lib/web-chat.ts';
import { counterShown, enterSends, MAX_MESSAGE_CHARS, MessageCounter } from './ChatComposer.tsx';
import { FileView, OfferButtons } from './WebChatCore.tsx';

/** The content area's item (spec 001 §3 "Dynamic content item"). */
export interface DynamicItem {
  type: 'welcome' | 'text' | 'file';
  title: string;
  description: string;
  url?: string;
  fileType?: FileType;
  /** The visitor's question this item answers. */
  question?: string;
  offers?: Parameters<typeof OfferButtons>[0]['offers'];
  error?: boolean;
}

export const ICONS: Record<FileType, string> = {
  image: '🖼️',
  pdf: '📄',
  audio: '🎧',
  video: '🎬',
  document: '📄',
};

/**
 * How a library file is named (issue 10 §7): the first sentence of its context text, or its name
 * without the upload timestamp and extension when it has none; never its keywords, which are the
 * owner's triggers.
 */
export function fileTitle(file: IalandingFile): string {
  const context = file.context.replace(/\s+/g, ' ').trim();
  const first = context.match(/^.+?[.!?।](?=\s|$)/u)?.[0] ?? context;
  return (
    first ||
    file.file_name
      .replace(/^\d{10,}_/, '')
      .replace(/\.[a-z0-9]{2,5}$/i, '')
      .replace(/[-_]+/g, ' ')
  );
}

export function Question({ question, t }: { question: string; t: TFunction }) {
  return (
    <p className="text-sm text-slate-600">
      <span className="font-semibold text-slate-700">{t('landing.yourQuestion')}:</span> {question}
    </p>
  );
}

export function Pending({ question, streaming, t }: { question: string; streaming: string; t: TFunction }) {
  return (
    <div className="space-y-3">
      {question ? <Question question={question} t={t} /> : null}
      {streaming ? (
        <p className="text-lg whitespace-pre-wrap text-slate-900">{streaming}</p>
      ) : (
        <p role="status" className="flex items-center gap-2 text-slate-600">
          <span aria-hidden="true" className="flex gap-1">
            <span className="h-2 w-2 animate-bounce rounded-full bg-brand-600" />
            <span className="h-2 w-2 animate-bounce rounded-full bg-brand-600 [animation-delay:150ms]" />
            <span className="h-2 w-2 animate-bounce rounded-full bg-brand-600 [animation-delay:300ms]" />
          </span>
          {t('chat.typing')}
        </p>
      )}
    </div>
  );
}

export function Content({
  item,
  t,
  onPick,
  busy,
}: {
  item: DynamicItem;
  t: TFunction;
  onPick: (n: number, label: string) => void;
  busy: boolean;
}) {
  return (
    <div className="space-y-4">
      {item.question ? <Question question={item.question} t={t} /> : null}
      <h2
        className={`text-xl font-bold tracking-tight break-words min-[700px]:text-2xl ${item.error ? 'text-red-800' : 'text-slate-900'}`}
        data-testid="ialanding-content-title"
      >
        {item.type === 'file' && item.fileType ? (
          <span aria-hidden="true">{ICONS[item.fileType]} </span>
        ) : null}
        {item.title}
      </h2>
      {item.description ? (
        <p
          className={`text-lg whitespace-pre-wrap ${item.error ? 'text-red-800' : 'text-slate-800'}`}
          data-testid="ialanding-content-text"
        >
          {item.description}
        </p>
      ) : null}
      {item.type === 'file' && item.url && item.fileType ? (
        <FileView file={{ url: item.url, type: item.fileType, name: item.title }} t={t} />
      ) : null}
      {item.offers?.length ? (
        <OfferButtons offers={item.offers} onPick={onPick} t={t} disabled={busy} />
      ) : null}
    </div>
  );
}

/** The file library: a card per file with its type, its context text and "Ver →"; the empty state. */
export function Library({
  files,
  onShow,
  t,
}: {
  files: IalandingFile[];
  onShow: (f: IalandingFile) => void;
  t: TFunction;
}) {
  if (files.length === 0) {
    return (
      <section
        className="rounded-3xl border border-dashed border-brand-600/40 bg-white/70 p-8 text-center"
        data-testid="ialanding-empty"
      >
        <p className="text-4xl" aria-hidden="true">
          ✨
        </p>
        <h2 className="mt-2 text-xl font-bold text-slate-900">{t('landing.emptyTitle')}</h2>
        <p className="mt-1 text-slate-600">{t('landing.emptyText')}</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="ialanding-library" className="space-y-3">
      <div>
        <h2 id="ialanding-library" className="text-xl font-bold text-slate-900">
          {t('landing.library')}
        </h2>
        <p className="text-sm text-slate-600">{t('landing.libraryText')}</p>
      </div>
      <ul
        className="grid grid-cols-2 gap-3 min-[700px]:grid-cols-3 lg:grid-cols-4"
        data-testid="ialanding-library"
      >
        {files.map((f) => (
          <li key={f.id}>
            <button
              type="button"
              onClick={() => onShow(f)}
              className="flex h-full w-full flex-col overflow-hidden rounded-2xl border border-slate-200 bg-white text-left shadow-sm transition hover:border-brand-600 hover:shadow"
            >
              {f.file_type === 'image' ? (
                <img src={f.publicUrl} alt="" loading="lazy" className="h-28 w-full object-cover" />
              ) : (
                <span
                  aria-hidden="true"
                  className="flex h-28 w-full items-center justify-center bg-brand-50 text-4xl"
                >
                  {ICONS[f.file_type]}
                </span>
              )}
              <span className="flex flex-1 flex-col gap-1 p-3">
                <span className="text-xs font-semibold tracking-wide text-brand-800 uppercase">
                  {t(`landing.types.${f.file_type}`)}
                </span>
                <span
                  className="line-clamp-3 text-sm font-medium text-slate-900"
                  data-testid="ialanding-card-label"
                >
                  {fileTitle(f)}
                </span>
                <span className="mt-auto pt-1 text-sm font-semibold text-brand-700">{t('landing.view')}</span>
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/**
 * The chat bar: a full-width bar on phones (under 700 px), a floating rounded bar above; the note
 * that answers show above and the producer link. The input takes at most MAX_MESSAGE_CHARS, with
 * the composers' counter (ChatComposer.tsx) from 80 % of it.
 */
export function ChatBar({
  t,
  input,
  setInput,
  submit,
  pending,
  available,
  unavailableText,
  typed = '',
}: {
  t: TFunction;
  input: string;
  setInput: (v: string) => void;
  submit: () => void;
  pending: boolean;
  available: boolean;
  unavailableText: string | null;
  /** Text typed into the server's HTML before hydration (the island reads it). */
  typed?: string;
}) {
  // Text typed into the server-rendered page before its script hydrated it (issue 16) is not in
  // the state: take it over once, so Send and Enter work on it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, right after hydration
  useEffect(() => {
    if (typed && !input) setInput(typed);
  }, []);
  return (
    <div
      className="fixed inset-x-0 bottom-0 z-30 min-[700px]:bottom-4 min-[700px]:px-4"
      data-testid="ialanding-chatbar"
    >
      <div className="mx-auto max-w-3xl border-t border-slate-200 bg-white px-3 pt-2 pb-[max(0.5rem,env(safe-area-inset-bottom))] shadow-[0_-4px_20px_rgba(15,23,42,0.08)] min-[700px]:rounded-2xl min-[700px]:border min-[700px]:px-4 min-[700px]:py-3 min-[700px]:shadow-xl">
        {available ? null : (
          <p role="status" className="mb-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
            {unavailableText || t('landing.unavailable')}
          </p>
        )}
        <div className="flex items-end gap-2">
          <textarea
            aria-label={t('chat.placeholder')}
            aria-describedby={counterShown(input.length) ? 'ialanding-counter' : undefined}
            placeholder={t('chat.placeholder')}
            rows={1}
            maxLength={MAX_MESSAGE_CHARS}
            value={input}
            disabled={pending || !available}
            onChange={(e) => setInput(e.target.value)}
            onKeyDown={enterSends(submit)}
            className="max-h-32 min-h-11 flex-1 resize-none rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-base focus:border-brand-600 focus:ring-2 focus:ring-brand-100 focus:outline-none disabled:bg-slate-100"
          />
          <button
            type="button"
            onClick={submit}
            disabled={pending || !available || !input.trim()}
            className="min-h-11 rounded-xl bg-brand-700 px-4 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-slate-300 disabled:text-slate-600"
          >
            {t('chat.send')}
          </button>
        </div>
        <MessageCounter id="ialanding-counter" length={input.length} t={t} />
        <div className="mt-1.5 flex items-center justify-between gap-2 text-xs text-slate-600">
          <p>{t('landing.note')}</p>
          <a href="/" className="shrink-0 font-semibold text-brand-800 hover:underline">
            {t('landing.madeWith')}
          </a>
        </div>
      </div>
    </div>
  );
}
