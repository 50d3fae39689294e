/**
 * The attached files' modals (spec 000 §2, §4, §5): the edit modal (keyword and description, both
 * required; the save button is disabled while either is empty; spaces separate keywords like commas
 * and the keywords to be saved show under the field; Escape closes it, issue 10) and the "Subiendo
 * Video" progress modal.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { sendJson } from '../lib/api.ts';
import { type BotFile, CONFIG_TOAST_MS, filesKey, keywordInput, splitKeywords } from '../lib/files.ts';
import { KeywordWarning } from './KeywordWarning.tsx';
import { Dialog, useEscape } from './ui.tsx';

/**
 * Edits a file's keywords and description. `notice`, when given, is shown at the top (the upload's
 * audio or video could not be converted and the original was stored).
 */
export function FileEditModal({
  file,
  chatbotId,
  onClose,
  notice = null,
}: {
  file: BotFile;
  chatbotId: string;
  onClose: () => void;
  notice?: string | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [keyword, setKeyword] = useState(file.keyword);
  const [context, setContext] = useState(file.context);
  const [busy, setBusy] = useState(false);
  const keywords = splitKeywords(keyword);
  const ready = keywords.length > 0 && context.trim() !== '';
  useEscape(onClose);

  async function save() {
    setBusy(true);
    try {
      const res = await sendJson(
        `/api/chatbot-files/${file.id}`,
        { keyword: keywords.join(','), context },
        'PATCH',
      );
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
    <Dialog labelledBy="edit-file-title" panel="w-full max-w-md space-y-4 rounded-2xl bg-white p-5 shadow-xl">
      <h3 id="edit-file-title" className="text-lg font-semibold">
        {t('files.editTitle')}: <span className="font-normal">{file.file_name}</span>
      </h3>
      {notice ? (
        <p role="alert" className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {notice}
        </p>
      ) : null}
      <label className="block space-y-1 text-sm">
        <span className="font-medium text-slate-700">{t('files.keywordLabel')}</span>
        <input
          value={keyword}
          onChange={(e) => setKeyword(keywordInput(e.target.value))}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2 font-mono"
          aria-describedby="keyword-hint"
        />
        <span id="keyword-hint" className="block text-xs text-slate-500">
          {keyword ? t('files.keywordHint') : t('files.required')}
        </span>
        {keywords.length > 0 ? (
          <span
            className="flex flex-wrap items-center gap-1 text-xs text-slate-600"
            data-testid="keyword-preview"
          >
            {t('files.keywordsSaved', { count: keywords.length })}
            {keywords.map((k) => (
              <span key={k} className="rounded-full bg-brand-50 px-2 py-0.5 font-mono text-brand-800">
                {k}
              </span>
            ))}
          </span>
        ) : null}
      </label>
      <KeywordWarning keyword={keyword} />
      <label className="block space-y-1 text-sm">
        <span className="font-medium text-slate-700">{t('files.context')}</span>
        <textarea
          value={context}
          onChange={(e) => setContext(e.target.value)}
          rows={4}
          className="block w-full rounded-lg border border-slate-300 px-3 py-2"
        />
        {context.trim() ? null : <span className="block text-xs text-slate-500">{t('files.required')}</span>}
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
    </Dialog>
  );
}

/** The "Subiendo Video" modal (spec 000 §2, §4): a percentage bar; "completed" at 100 %. */
export function VideoProgressModal({ percent }: { percent: number }) {
  const { t } = useTranslation();
  return (
    <Dialog
      labelledBy="video-progress-title"
      panel="w-full max-w-sm space-y-3 rounded-2xl bg-white p-5 shadow-xl"
    >
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
    </Dialog>
  );
}
