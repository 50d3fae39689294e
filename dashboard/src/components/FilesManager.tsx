/**
 * The attached-files manager of /configure (spec 000 §2, §4, §5, §9). The client checks the format,
 * the 10 MB a file, the 10 files a bot and "one upload at a time" with the spec's texts (the server
 * checks again). An upload shows a temporary "uploading" entry that becomes the saved record or
 * disappears on failure, then the edit modal opens. Each file shows a preview (image, PDF link,
 * audio and video players), its keywords or the "unconfigured" flag, and its context cut at 180
 * characters or 6 lines with "see more". Below, the table of keywords the AI knows.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { ALLOWED_EXTENSIONS, FILE_LIMITS } from '../../../engine/schemas.ts';

/** A file as `GET /api/chatbot-files` returns it. */
export interface BotFile {
  id: string;
  file_name: string;
  file_type: 'image' | 'pdf' | 'audio' | 'video';
  keyword: string;
  context: string;
  publicUrl: string;
}

const CONFIG_TOAST_MS = 2000;
/** Spec 000 §9: context cut at 180 characters or more than 6 lines. */
const CONTEXT_CHARS = 180;
const CONTEXT_LINES = 6;

/** Keyword as typed (spec 000 §5): quotes stripped, no whitespace; commas separate keywords. */
export function cleanKeyword(value: string): string {
  return value.replace(/["'`´‘’“”«»]/g, '').replace(/\s+/g, '');
}

/** Spec 000 §4, §9: the video upload's progress steps, in percent; 100 shows "completed". */
export const VIDEO_STEPS = [10, 30, 60, 90] as const;
/** Spec 000 §4: the video modal closes 1.5 s after reaching 100 %. */
const VIDEO_MODAL_CLOSE_MS = 1500;
const VIDEO_EXTENSIONS = new Set(['mp4', 'mov', 'm4v', 'webm']);

/**
 * POSTs a multipart form and reports its stages, which the video modal maps onto spec 000's steps:
 * 0 = validated and started, 1 = the body is being sent, 2 = the body is sent and the server is
 * converting (ffmpeg) and storing, 3 = the server answered. Uses XMLHttpRequest because fetch
 * cannot report upload progress. Resolves with the HTTP status and the parsed JSON body (an empty
 * object when the body is not JSON); rejects only on a network failure.
 */
function postWithProgress(
  url: string,
  form: FormData,
  onStage: (stage: 0 | 1 | 2 | 3) => void,
): Promise<{ status: number; body: Partial<BotFile> & { error?: string } }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.upload.onloadstart = () => onStage(1);
    xhr.upload.onload = () => onStage(2);
    xhr.onload = () => {
      onStage(3);
      let body: Partial<BotFile> & { error?: string } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON (a proxy's error page): the caller shows the generic upload error
      }
      resolve({ status: xhr.status, body });
    };
    xhr.onerror = () => reject(new Error(''));
    onStage(0);
    xhr.send(form);
  });
}

const filesKey = (chatbotId: string) => ['files', chatbotId] as const;

export function FilesManager({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const inputRef = useRef<HTMLInputElement>(null);
  const [uploading, setUploading] = useState<string | null>(null);
  const [editing, setEditing] = useState<BotFile | null>(null);
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
  useEffect(() => {
    const events = new EventSource(`/api/chatbot-files/events?chatbotId=${encodeURIComponent(chatbotId)}`);
    events.addEventListener(
      'change',
      () => void queryClient.invalidateQueries({ queryKey: filesKey(chatbotId) }),
    );
    return () => events.close();
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
      if (status < 200 || status >= 300) throw new Error(body.error ?? t('files.uploadError'));
      await queryClient.invalidateQueries({ queryKey: filesKey(chatbotId) });
      if (isVideo) {
        setVideoProgress(100);
        await new Promise((resolve) => setTimeout(resolve, VIDEO_MODAL_CLOSE_MS));
      }
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
            onEdit={() => setEditing(file)}
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
      {videoProgress !== null ? <VideoProgressModal percent={videoProgress} /> : null}
      {editing ? <EditModal file={editing} chatbotId={chatbotId} onClose={() => setEditing(null)} /> : null}
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
        {file.file_type === 'pdf' ? (
          <a
            href={file.publicUrl}
            target="_blank"
            rel="noopener"
            className="flex h-20 w-28 items-center justify-center rounded-lg bg-red-50 text-sm font-bold text-red-700"
          >
            {t('files.types.pdf')}
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
      </div>
      <div className="flex gap-2 sm:flex-col">
        <button
          type="button"
          onClick={onEdit}
          className="rounded-lg border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50"
        >
          {t('files.edit')}
        </button>
        <button
          type="button"
          onClick={onDelete}
          className="rounded-lg border border-red-200 px-3 py-1 text-sm text-red-700 hover:bg-red-50"
        >
          {t('files.delete')}
        </button>
      </div>
    </li>
  );
}

function EditModal({ file, chatbotId, onClose }: { file: BotFile; chatbotId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState(file.keyword);
  const [context, setContext] = useState(file.context);
  const [busy, setBusy] = useState(false);
  const ready = keyword.replace(/,/g, '').trim() !== '' && context.trim() !== '';

  async function save() {
    setBusy(true);
    try {
      const res = await fetch(`/api/chatbot-files/${file.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ keyword, context }),
      });
      if (!res.ok) throw new Error(t('files.updateError'));
      await queryClient.invalidateQueries({ queryKey: filesKey(chatbotId) });
      onClose();
    } catch (err) {
      toast.error((err as Error).message, { duration: CONFIG_TOAST_MS });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby="edit-file-title"
    >
      <div className="w-full max-w-md space-y-4 rounded-2xl bg-white p-5 shadow-xl">
        <h3 id="edit-file-title" className="text-lg font-semibold">
          {t('files.editTitle')}: <span className="font-normal">{file.file_name}</span>
        </h3>
        <label className="block space-y-1 text-sm">
          <span className="font-medium text-slate-700">{t('files.keyword')}</span>
          <input
            value={keyword}
            onChange={(e) => setKeyword(cleanKeyword(e.target.value))}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono"
            aria-describedby="keyword-hint"
          />
          <span id="keyword-hint" className="block text-xs text-slate-500">
            {keyword ? t('files.keywordHint') : t('files.required')}
          </span>
        </label>
        <label className="block space-y-1 text-sm">
          <span className="font-medium text-slate-700">{t('files.context')}</span>
          <textarea
            value={context}
            onChange={(e) => setContext(e.target.value)}
            rows={4}
            className="block w-full rounded-lg border border-slate-300 px-3 py-2"
          />
          {context.trim() ? null : (
            <span className="block text-xs text-slate-500">{t('files.required')}</span>
          )}
        </label>
        <div className="flex justify-end gap-2">
          <button
            type="button"
            onClick={onClose}
            className="rounded-lg border border-slate-300 px-4 py-2 text-sm"
          >
            {t('files.cancel')}
          </button>
          <button
            type="button"
            onClick={() => void save()}
            disabled={!ready || busy}
            className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:bg-slate-300"
          >
            {t('files.save')}
          </button>
        </div>
      </div>
    </div>
  );
}

/** The "Subiendo Video" modal (spec 000 §2, §4): a percentage bar; "completed" at 100 %. */
function VideoProgressModal({ percent }: { percent: number }) {
  const { t } = useTranslation();
  return (
    <div
      className="fixed inset-0 z-40 flex items-center justify-center bg-slate-900/40 p-4"
      role="dialog"
      aria-modal="true"
      aria-labelledby="video-progress-title"
    >
      <div className="w-full max-w-sm space-y-3 rounded-2xl bg-white p-5 shadow-xl">
        <h3 id="video-progress-title" className="text-lg font-semibold">
          {t('files.videoTitle')}
        </h3>
        <div
          role="progressbar"
          aria-valuenow={percent}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-labelledby="video-progress-title"
          className="h-3 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-brand-700 transition-all duration-300" style={{ width: `${percent}%` }} />
        </div>
        <p className="text-sm text-slate-600" data-testid="video-progress">
          {percent >= 100 ? t('files.videoDone') : `${percent}%`}
        </p>
      </div>
    </div>
  );
}
