/**
 * The file the owner attaches to a reply in the inbox (issue 27 §3): one of the bot's stored files
 * (the broadcast bar's list: `filesQuery`, up to {@link FILE_PICKER_LIMIT}, newest first) or a new
 * image, PDF, audio or video from the device (spec 000 §5 formats, 10 MB; checked here first so a
 * refused file costs no upload, and again by the server). A 📎 button opens the choice; the chosen
 * file shows as a chip with a button to drop it. Narrow enough for a 390 px phone (wraps, no
 * sideways scroll).
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALLOWED_EXTENSIONS, FILE_LIMITS } from '../../../engine/schemas.ts';
import type { ReplyFile } from '../lib/conversations.ts';
import { filesQuery } from '../lib/files.ts';
import { FILE_PICKER_LIMIT } from './BroadcastBar.tsx';

/** The shown name of an attached file. */
export const replyFileName = (f: ReplyFile) => ('fileKey' in f ? f.name : f.upload.name);

/** The 📎 button, the picker row and the chosen file's chip; `onError` gets a refusal's text. */
export function ReplyAttachment({
  chatbotId,
  value,
  onChange,
  onError,
  disabled,
}: {
  chatbotId: string;
  value: ReplyFile | null;
  onChange: (file: ReplyFile | null) => void;
  onError: (text: string) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const files = useQuery({ ...filesQuery(chatbotId), enabled: open });
  const pickerId = useId();
  const uploadId = useId();
  const panelId = useId();

  function pickUpload(file: File | undefined) {
    if (!file) return;
    const ext = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
    if (!(ALLOWED_EXTENSIONS as readonly string[]).includes(ext))
      return onError(t('conversations.file.badFormat', { name: file.name }));
    if (file.size > FILE_LIMITS.maxFileBytes)
      return onError(t('conversations.file.tooBig', { name: file.name }));
    onChange({ upload: file });
    setOpen(false);
  }

  return (
    <div className="flex min-w-0 flex-wrap items-center gap-2">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        disabled={disabled}
        onClick={() => setOpen((o) => !o)}
        className="rounded-lg border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-800 hover:bg-slate-50 disabled:opacity-50"
      >
        📎 {t('conversations.file.attach')}
      </button>
      {value ? (
        <span
          data-testid="reply-file"
          className="flex min-w-0 max-w-full items-center gap-1 rounded-full bg-amber-50 px-2.5 py-1 text-sm text-amber-950"
        >
          <span className="truncate">📄 {replyFileName(value)}</span>
          <button
            type="button"
            onClick={() => onChange(null)}
            aria-label={t('conversations.file.remove', { name: replyFileName(value) })}
            className="shrink-0 rounded-full px-1 font-bold text-amber-900 hover:bg-amber-100"
          >
            ✕
          </button>
        </span>
      ) : null}
      {open ? (
        <div id={panelId} className="flex w-full min-w-0 flex-wrap items-center gap-2">
          <label htmlFor={pickerId} className="text-sm text-slate-700">
            {t('conversations.file.stored')}
          </label>
          <select
            id={pickerId}
            value={value && 'fileKey' in value ? value.fileKey : ''}
            onChange={(e) => {
              const f = (files.data ?? []).find((x) => x.id === e.target.value);
              onChange(f ? { fileKey: f.id, name: f.file_name } : null);
              if (f) setOpen(false);
            }}
            className="min-w-0 max-w-full flex-1 rounded-md border border-slate-300 px-1.5 py-1 text-sm"
          >
            <option value="">
              {files.isLoading ? t('conversations.loading') : t('conversations.file.none')}
            </option>
            {(files.data ?? []).slice(0, FILE_PICKER_LIMIT).map((f) => (
              <option key={f.id} value={f.id}>
                {f.file_name}
              </option>
            ))}
          </select>
          <label
            htmlFor={uploadId}
            className="cursor-pointer rounded-lg border border-dashed border-slate-400 px-2.5 py-1 text-sm text-slate-800 focus-within:ring-2 focus-within:ring-brand-600"
          >
            {t('conversations.file.upload')}
            <input
              id={uploadId}
              type="file"
              className="sr-only"
              accept={ALLOWED_EXTENSIONS.map((x) => `.${x}`).join(',')}
              onChange={(e) => {
                pickUpload(e.target.files?.[0]);
                e.target.value = '';
              }}
            />
          </label>
        </div>
      ) : null}
    </div>
  );
}
