/**
 * What the bot read inside a file (issue 30 §1), on its card in the files manager: the reading
 * state ("Leyendo… 12/40 páginas", "Sin texto: es un PDF escaneado", "Listo · 3 páginas"), live
 * (its query lives under the files list's key, so the files' live events refresh it in every tab),
 * and "Ver texto", a dialog where the owner reads each page's text, corrects it and saves it
 * (`PUT /api/chatbot-files/:id/text/pages/:page`, which re-indexes the file).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { sendJson } from '../lib/api.ts';
import { type BotFile, CONFIG_TOAST_MS, filesKey } from '../lib/files.ts';
import { Dialog, useEscape } from './ui.tsx';

/** A file's reading state, as `GET /api/chatbot-files/texts` returns it. */
interface TextStatus {
  fileId: string;
  state: 'pending' | 'reading' | 'ready' | 'no_text' | 'unsupported' | 'failed' | 'too_large';
  pagesDone: number;
  pagesTotal: number | null;
  chars: number;
  errorCode: string | null;
  editedAt: string | null;
}

/** A file's state with its pages (`GET /api/chatbot-files/:id/text`). */
interface FileText extends TextStatus {
  pages: Array<{ page: number; text: string }>;
}

/** The reading states of a bot's files; refreshed with the files list (same key prefix). */
const textsKey = (chatbotId: string) => [...filesKey(chatbotId), 'texts'] as const;

/** The state's words for a card. */
function useStateLabel(status: TextStatus | undefined): string | null {
  const { t } = useTranslation();
  if (!status) return null;
  const { state, pagesDone: done, pagesTotal: total, errorCode: code } = status;
  if (state === 'pending') return t('knowledge.state.pending');
  if (state === 'reading')
    return total ? t('knowledge.state.reading', { done, total }) : t('knowledge.state.readingStart');
  if (state === 'ready') return t('knowledge.state.ready', { count: total ?? done });
  if (state === 'too_large')
    return code === 'too_many_chars'
      ? t('knowledge.state.tooManyChars')
      : t('knowledge.state.tooManyPages', { done, total: total ?? done });
  const known = [
    'scanned',
    'empty',
    'silent',
    'image_no_ocr',
    'no_speech_server',
    'unreadable',
    'transcription_failed',
    'missing',
  ];
  return t(`knowledge.errors.${known.includes(code ?? '') ? code : 'unreadable'}`);
}

/** The reading state and "Ver texto" of one file's card. */
export function FileReading({ file }: { file: BotFile }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const states = useQuery({
    queryKey: textsKey(file.chatbot_id),
    queryFn: async (): Promise<TextStatus[]> => {
      const res = await fetch(`/api/chatbot-files/texts?chatbotId=${encodeURIComponent(file.chatbot_id)}`);
      if (!res.ok) throw new Error(t('knowledge.loadError'));
      return (await res.json()) as TextStatus[];
    },
  });
  const status = states.data?.find((s) => s.fileId === file.id);
  const label = useStateLabel(status);
  if (!status || !label) return null;
  const busy = status.state === 'pending' || status.state === 'reading';
  const good = status.state === 'ready';
  const readable = good || status.state === 'too_large';
  // Nothing read (a scanned PDF, an image): the owner may type the text in (issue 30 §1).
  const typeable = status.state === 'no_text' || status.state === 'unsupported';
  return (
    <div className="flex flex-wrap items-center gap-2 text-xs" data-testid="file-reading">
      <span
        className={`rounded px-1.5 py-0.5 font-medium ${good ? 'bg-emerald-50 text-emerald-800' : busy ? 'bg-slate-100 text-slate-700' : 'bg-amber-50 text-amber-900'}`}
      >
        {label}
      </span>
      {readable || typeable || status.state === 'failed' ? (
        <button
          type="button"
          onClick={() => setOpen(true)}
          className="font-semibold text-brand-700 hover:underline"
          aria-label={t(readable ? 'knowledge.viewOf' : 'knowledge.typeOf', { file: file.file_name })}
        >
          {t(readable ? 'knowledge.view' : 'knowledge.type')}
        </button>
      ) : null}
      {open ? <FileTextDialog file={file} onClose={() => setOpen(false)} /> : null}
    </div>
  );
}

/** The dialog where the owner reads and corrects each page of a file's text. */
export function FileTextDialog({ file, onClose }: { file: BotFile; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [draft, setDraft] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);
  useEscape(onClose);
  const text = useQuery({
    queryKey: [...filesKey(file.chatbot_id), 'text', file.id],
    queryFn: async (): Promise<FileText> => {
      const res = await fetch(`/api/chatbot-files/${file.id}/text`);
      if (!res.ok) throw new Error(t('knowledge.loadError'));
      return (await res.json()) as FileText;
    },
  });
  const pages = text.data?.pages ?? [];
  // No pages (a scanned PDF, an image): page 1 is where the owner types the text in.
  const blank = text.data && pages.length === 0 ? { page: 1, text: '' } : undefined;
  const current = pages.find((p) => p.page === page) ?? pages[0] ?? blank;
  const value = draft ?? current?.text ?? '';

  async function save() {
    if (!current) return;
    setBusy(true);
    try {
      const res = await sendJson(
        `/api/chatbot-files/${file.id}/text/pages/${current.page}`,
        { text: value },
        'PUT',
      );
      if (!res.ok) throw new Error(t('knowledge.saveError'));
      await queryClient.invalidateQueries({ queryKey: filesKey(file.chatbot_id) });
      setDraft(null);
      toast.success(t('knowledge.saved'), { duration: CONFIG_TOAST_MS });
    } catch (err) {
      toast.error((err as Error).message, { duration: CONFIG_TOAST_MS });
    } finally {
      setBusy(false);
    }
  }

  /** "Volver a leer": a first click warns that corrections are replaced, the second queues it. */
  async function reread() {
    if (!confirming) return setConfirming(true);
    setBusy(true);
    try {
      const res = await fetch(`/api/chatbot-files/${file.id}/text/read`, { method: 'POST' });
      if (!res.ok) throw new Error(t('knowledge.rereadError'));
      await queryClient.invalidateQueries({ queryKey: filesKey(file.chatbot_id) });
      toast.success(t('knowledge.rereadQueued'), { duration: CONFIG_TOAST_MS });
      onClose();
    } catch (err) {
      toast.error((err as Error).message, { duration: CONFIG_TOAST_MS });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      labelledBy="file-text-title"
      panel="flex max-h-[90vh] w-full max-w-2xl flex-col gap-3 rounded-2xl bg-white p-5 shadow-xl"
    >
      <h3 id="file-text-title" className="text-lg font-semibold break-all">
        {t('knowledge.title', { file: file.file_name })}
      </h3>
      <p className="text-sm text-slate-600">{t(blank ? 'knowledge.typeHint' : 'knowledge.hint')}</p>
      {text.isError ? (
        <p role="alert" className="text-sm text-red-700">
          {t('knowledge.loadError')}
        </p>
      ) : null}
      {current ? (
        <>
          <div className={`flex flex-wrap items-center gap-2 text-sm ${blank ? 'hidden' : ''}`}>
            <label htmlFor="file-text-page" className="font-medium text-slate-700">
              {t('knowledge.page')}
            </label>
            <select
              id="file-text-page"
              value={current.page}
              onChange={(e) => {
                // Another page starts from its stored text.
                setPage(Number(e.target.value));
                setDraft(null);
              }}
              className="rounded-lg border border-slate-300 px-2 py-1"
            >
              {pages.map((p) => (
                <option key={p.page} value={p.page}>
                  {t('knowledge.pageOf', { page: p.page, total: pages.length })}
                </option>
              ))}
            </select>
            {text.data?.editedAt ? (
              <span className="text-xs text-slate-500">{t('knowledge.edited')}</span>
            ) : null}
          </div>
          <label className="flex min-h-0 flex-1 flex-col gap-1 text-sm">
            <span className="sr-only">{t('knowledge.pageText', { page: current.page })}</span>
            <textarea
              value={value}
              onChange={(e) => setDraft(e.target.value)}
              rows={14}
              className="block min-h-40 w-full flex-1 rounded-lg border border-slate-300 px-3 py-2 font-mono text-xs"
            />
          </label>
        </>
      ) : null}
      {confirming ? (
        <p role="alert" className="text-sm text-amber-900">
          {t('knowledge.rereadWarning')}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        {file.file_type !== 'image' ? (
          <button
            type="button"
            onClick={() => void reread()}
            disabled={busy}
            className="mr-auto rounded-lg border border-slate-300 px-4 py-2 text-sm"
          >
            {t(confirming ? 'knowledge.rereadConfirm' : 'knowledge.reread')}
          </button>
        ) : null}
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg border border-slate-300 px-4 py-2 text-sm"
        >
          {t('knowledge.close')}
        </button>
        <button
          type="button"
          onClick={() => void save()}
          disabled={!current || draft === null || busy}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:bg-slate-300"
        >
          {t('knowledge.save')}
        </button>
      </div>
    </Dialog>
  );
}
