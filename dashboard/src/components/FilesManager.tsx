/**
 * The attached-files manager of /configure (spec 000 §2, §4, §5, §9). The client checks the format,
 * the 10 MB a file, the 10 files a bot and "one upload at a time" with the spec's texts (the server
 * checks again). An upload shows a temporary "uploading" entry that becomes the saved record or
 * disappears on failure, then the edit modal opens. Each file shows a preview (image, PDF link,
 * audio and video players), its keywords or the "unconfigured" flag, and its context cut at 180
 * characters or 6 lines with "see more". A file whose content is not what its extension says gets
 * "factura.jpg no es un JPG válido" (issue 10). Below, the table of keywords the AI knows. The edit and
 * "Subiendo Video" modals are in FileModals.tsx; the file record and upload request in lib/files.ts.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ALLOWED_EXTENSIONS, FILE_LIMITS } from '../../../engine/schemas.ts';
import {
  type BotFile,
  CONFIG_TOAST_MS,
  filesKey,
  postWithProgress,
  VIDEO_EXTENSIONS,
  VIDEO_MODAL_CLOSE_MS,
  VIDEO_STEPS,
} from '../lib/files.ts';
import { quietEventSource } from '../lib/sse.ts';
import { FileEditModal, VideoProgressModal } from './FileModals.tsx';
import { FileReading } from './FileText.tsx';
import { KeywordTester } from './KeywordTester.tsx';
import { DangerButton } from './ui.tsx';

/** Spec 000 §9: context cut at 180 characters or more than 6 lines. */
const CONTEXT_CHARS = 180;
const CONTEXT_LINES = 6;

export function FilesManager({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [editing, setEditing] = useState<BotFile | null>(null);
  /** Said in the edit modal after an upload whose audio or video could not be converted. */
  const [notice, setNotice] = useState<string | null>(null);
  /** The "Subiendo Video" modal's percentage, or null when it is closed. */
  const [videoProgress, setVideoProgress] = useState<number | null>(null);
  const files = useQuery({
    queryKey: filesKey(chatbotId),
    queryFn: async (): Promise<BotFile[]> => {
      const res = await fetch(`/api/chatbot-files?chatbotId=${encodeURIComponent(chatbotId)}`);
      if (!res.ok) throw new Error(t('files.loadError'));
      return (await res.json()) as BotFile[];
    },
  });
  // Live updates (issue 4): another tab's upload, edit or delete refreshes this list at once.
  // Leaving the screen ends the stream from the server, so nothing is aborted (issue 10). A stream
  // that dropped, or whose server lost its database for a while, comes back and reloads the list
  // (issue 24 §1): changes made meanwhile are shown without a page reload.
  useEffect(() => {
    const reload = () => void queryClient.invalidateQueries({ queryKey: filesKey(chatbotId) });
    return quietEventSource(
      `/api/chatbot-files/events?chatbotId=${encodeURIComponent(chatbotId)}`,
      '/api/chatbot-files/events/close',
      { change: reload },
      { resync: reload },
    );
  }, [chatbotId, queryClient]);
  const list = files.data ?? [];
  const unconfigured = list.filter((f) => !f.keyword.trim()).length;

  const remove = useMutation({
    mutationFn: async (file: BotFile) => {
      const res = await fetch(`/api/chatbot-files/${file.id}`, { method: 'DELETE' });
      if (!res.ok) throw new Error(t('files.deleteError'));
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: filesKey(chatbotId) }),
    onError: (err) => toast.error((err as Error).message, { duration: CONFIG_TOAST_MS }),
  });

  async function choose(e: ChangeEvent<HTMLInputElement>) {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
    const fail = (message: string) => toast.error(message, { duration: CONFIG_TOAST_MS });
    if (uploading) return fail(t('files.busy'));
    if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(ext))
      return fail(t('files.badFormat', { file: file.name }));
    if (file.size > FILE_LIMITS.maxFileBytes) return fail(t('files.tooBig', { file: file.name }));
    if (list.length >= FILE_LIMITS.maxFilesPerBot) return fail(t('files.tooMany'));
    const isVideo = VIDEO_EXTENSIONS.has(ext);
    setUploading(file.name);
    if (isVideo) setVideoProgress(VIDEO_STEPS[0]);
    try {
      const form = new FormData();
      form.append('chatbotId', chatbotId);
      form.append('file', file, file.name);
      const { status, body } = await postWithProgress('/api/chatbot-files', form, (stage) => {
        if (isVideo) setVideoProgress(VIDEO_STEPS[stage]);
      });
      // 415 here means an allowed extension whose content is not that format (issue 10).
      if (status === 415)
        throw new Error(t('files.notValid', { file: file.name, format: ext.toUpperCase() }));
      if (status < 200 || status >= 300) throw new Error(body.error ?? t('files.uploadError'));
      await queryClient.invalidateQueries({ queryKey: filesKey(chatbotId) });
      if (isVideo) {
        setVideoProgress(100);
        await new Promise((resolve) => setTimeout(resolve, VIDEO_MODAL_CLOSE_MS));
      }
      setNotice(body.conversionFailed ? t('files.conversionFailed', { file: file.name }) : null);
      setEditing(body as BotFile);
    } catch (err) {
      fail((err as Error).message || t('files.uploadError'));
    } finally {
      setUploading(null);
      setVideoProgress(null);
    }
  }

  return (
    <section
      className="space-y-4 rounded-2xl border border-slate-200 bg-white p-5 shadow-sm"
      aria-labelledby="files-title"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 id="files-title" className="text-lg font-semibold">
            {t('files.title')}
          </h2>
          <p className="text-sm text-slate-600">{t('files.subtitle')}</p>
          <p className="mt-1 text-xs text-slate-500">{t('files.limits')}</p>
        </div>
        <input
          ref={inputRef}
          type="file"
          className="sr-only"
          aria-label={t('files.choose')}
          accept={ALLOWED_EXTENSIONS.map((x) => `.${x}`).join(',')}
          onChange={(e) => void choose(e)}
        />
        <button
          type="button"
          onClick={() => inputRef.current?.click()}
          disabled={Boolean(uploading)}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-800 disabled:bg-slate-400"
        >
          {t('files.choose')}
        </button>
      </div>
      {unconfigured > 0 ? (
        <p
          role="status"
          className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900"
        >
          {t('files.unconfiguredWarning', { count: unconfigured })}
        </p>
      ) : null}
      <ul className="space-y-3">
        {uploading ? (
          <li
            className="flex items-center gap-3 rounded-xl border border-dashed border-slate-300 p-3 text-sm text-slate-600"
            data-testid="uploading"
          >
            <span
              className="h-4 w-4 animate-spin rounded-full border-2 border-brand-700 border-t-transparent"
              aria-hidden="true"
            />
            {uploading} · {t('files.uploading')}
          </li>
        ) : null}
        {list.map((file) => (
          <FileItem
            key={file.id}
            file={file}
            onEdit={() => {
              setNotice(null);
              setEditing(file);
            }}
            onDelete={() =>
              window.confirm(t('files.confirmDelete', { file: file.file_name })) && remove.mutate(file)
            }
          />
        ))}
        {list.length === 0 && !uploading ? (
          <li className="text-sm text-slate-500">{t('files.empty')}</li>
        ) : null}
      </ul>
      {list.some((f) => f.keyword) ? (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
        <section className="overflow-x-auto" aria-labelledby="keywords-title" tabIndex={0}>
          <h3 id="keywords-title" className="mb-2 text-sm font-semibold text-slate-700">
            {t('files.keywordsTable')}
          </h3>
          <table className="w-full text-left text-sm">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-1 pr-3">{t('files.keyword')}</th>
                <th className="py-1 pr-3">{t('files.file')}</th>
                <th className="py-1">{t('files.type')}</th>
              </tr>
            </thead>
            <tbody>
              {list
                .filter((f) => f.keyword)
                .map((f) => (
                  <tr key={f.id} className="border-t border-slate-100">
                    <td className="py-1 pr-3 font-mono text-xs break-all">{f.keyword}</td>
                    <td className="py-1 pr-3 break-all">{f.file_name}</td>
                    <td className="py-1">{t(`files.types.${f.file_type}`)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {list.length > 0 ? <KeywordTester files={list} /> : null}
      {videoProgress !== null ? <VideoProgressModal percent={videoProgress} /> : null}
      {editing ? (
        <FileEditModal
          file={editing}
          chatbotId={chatbotId}
          notice={notice}
          onClose={() => {
            setEditing(null);
            setNotice(null);
          }}
        />
      ) : null}
    </section>
  );
}

function FileItem({ file, onEdit, onDelete }: { file: BotFile; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const [more, setMore] = useState(false);
  const long = file.context.length > CONTEXT_CHARS || file.context.split('\n').length > CONTEXT_LINES;
  const shown =
    !long || more
      ? file.context
      : `${file.context.slice(0, CONTEXT_CHARS).split('\n').slice(0, CONTEXT_LINES).join('\n')}…`;
  return (
    <li className="flex flex-col gap-3 rounded-xl border border-slate-200 p-3 sm:flex-row">
      <div className="shrink-0">
        {file.file_type === 'image' ? (
          <img src={file.publicUrl} alt={file.file_name} className="h-20 w-28 rounded-lg object-cover" />
        ) : null}
        {file.file_type === 'pdf' || file.file_type === 'document' ? (
          <a
            href={file.publicUrl}
            target="_blank"
            rel="noopener"
            className="flex h-20 w-28 items-center justify-center rounded-lg bg-red-50 text-sm font-bold text-red-700"
          >
            {t(`files.types.${file.file_type}`)}
          </a>
        ) : null}
        {file.file_type === 'audio' ? (
          // biome-ignore lint/a11y/useMediaCaption: owner-uploaded audio has no captions
          <audio controls preload="none" src={file.publicUrl} className="w-56" />
        ) : null}
        {file.file_type === 'video' ? (
          // biome-ignore lint/a11y/useMediaCaption: owner-uploaded video has no captions
          <video controls preload="metadata" src={file.publicUrl} className="h-20 w-28 rounded-lg" />
        ) : null}
      </div>
      <div className="min-w-0 flex-1 space-y-1">
        <p className="truncate text-sm font-medium">{file.file_name}</p>
        {file.keyword ? (
          <p className="font-mono text-xs text-brand-800">{file.keyword}</p>
        ) : (
          <p className="text-xs">
            <span className="rounded bg-amber-100 px-1.5 py-0.5 font-semibold text-amber-900">
              {t('files.unconfigured')}
            </span>{' '}
            <button type="button" onClick={onEdit} className="font-semibold text-brand-700 hover:underline">
              {t('files.configureIt')}
            </button>
          </p>
        )}
        {file.context ? (
          <p className="text-sm whitespace-pre-line text-slate-600">
            {shown}{' '}
            {long ? (
              <button
                type="button"
                onClick={() => setMore((m) => !m)}
                className="text-xs font-semibold text-brand-700 hover:underline"
              >
                {more ? t('files.seeLess') : t('files.seeMore')}
              </button>
            ) : null}
          </p>
        ) : null}
        <FileReading file={file} />
      </div>
      <div className="flex gap-2 sm:flex-col">
        <button
          type="button"
          onClick={onEdit}
          className="rounded-lg border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50"
        >
          {t('files.edit')}
        </button>
        <DangerButton look="outlineSmall" onClick={onDelete} label={t('files.delete')} />
      </div>
    </li>
  );
}
