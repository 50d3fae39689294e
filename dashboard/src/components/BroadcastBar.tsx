/**
 * The broadcast bar of /usuarios-conversaciones (spec 001 §2 Followers chat screen, §5 Broadcast;
 * issue 14 §3): a text and/or one of the bot's stored files (newest first, up to 100) sent to every
 * Telegram follower after a confirmation; the running broadcast's progress (sent, failed, blocked,
 * remaining) as a progress bar that refreshes every second; and the history of past broadcasts.
 * Needs a text or a file: "Escribe un texto o selecciona un archivo".
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { type BroadcastRow, broadcastsQuery, sendBroadcast } from '../lib/broadcasts.ts';
import { filesQuery } from '../lib/files.ts';
import { useBroadcastErrorText } from './broadcast-errors.ts';
import { submitSends } from './ChatComposer.tsx';
import { Alert, SrLabel } from './ui.tsx';

/** Issue 14 §3: the stored-file picker lists up to 100 files, newest first. */
export const FILE_PICKER_LIMIT = 100;

/** The bar, for one bot. */
export function BroadcastBar({ chatbotId }: { chatbotId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const errorText = useBroadcastErrorText();
  const broadcasts = useQuery(broadcastsQuery(chatbotId));
  const files = useQuery(filesQuery(chatbotId));
  const [text, setText] = useState('');
  const [fileKey, setFileKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const textId = useId();
  const fileId = useId();
  const rows = broadcasts.data?.broadcasts ?? [];
  const running = rows.find((b) => b.status === 'sending');

  async function send() {
    setError(null);
    if (!text.trim() && !fileKey) {
      setError(t('broadcast.nothing'));
      return;
    }
    if (!window.confirm(t('broadcast.confirm'))) return;
    setBusy(true);
    try {
      const { total } = await sendBroadcast(chatbotId, {
        ...(text.trim() ? { text: text.trim() } : {}),
        ...(fileKey ? { fileKey } : {}),
      });
      setText('');
      setFileKey('');
      toast.success(t('broadcast.started', { count: total }));
      await queryClient.invalidateQueries({ queryKey: ['broadcasts', chatbotId] });
    } catch (err) {
      setError(errorText(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section
      aria-labelledby={`${textId}-title`}
      className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <div>
        <h2 id={`${textId}-title`} className="font-semibold">
          {t('broadcast.title')}
        </h2>
        <p className="text-sm text-slate-600">{t('broadcast.subtitle')}</p>
      </div>
      <form className="grid gap-2 min-[700px]:grid-cols-[1fr_220px_auto]" onSubmit={submitSends(send)}>
        <SrLabel htmlFor={textId}>{t('broadcast.text')}</SrLabel>
        <textarea
          id={textId}
          rows={2}
          maxLength={4000}
          value={text}
          disabled={busy}
          placeholder={t('broadcast.text')}
          onChange={(e) => setText(e.target.value)}
          className="block min-w-0 rounded-lg border border-slate-300 px-3 py-2 text-base"
        />
        <div>
          <SrLabel htmlFor={fileId}>{t('broadcast.file')}</SrLabel>
          <select
            id={fileId}
            value={fileKey}
            disabled={busy}
            onChange={(e) => setFileKey(e.target.value)}
            className="block w-full rounded-lg border border-slate-300 px-2 py-2 text-sm"
          >
            <option value="">{t('broadcast.noFile')}</option>
            {(files.data ?? []).slice(0, FILE_PICKER_LIMIT).map((f) => (
              <option key={f.id} value={f.id}>
                {f.file_name}
              </option>
            ))}
          </select>
        </div>
        <button
          type="submit"
          disabled={busy}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:bg-slate-400"
        >
          {busy ? t('broadcast.sending') : t('broadcast.send')}
        </button>
      </form>
      {error ? <Alert tone="error">{error}</Alert> : null}
      {running ? <Progress row={running} /> : null}
      {rows.length > 0 ? <History rows={rows} /> : null}
    </section>
  );
}

function summary(t: ReturnType<typeof useTranslation>['t'], b: BroadcastRow): string {
  const parts = [
    b.text,
    b.fileName ? `📎 ${b.fileName}` : '',
    b.voice ? `🎤 ${t(`recorder.presets.${b.preset ?? 'natural'}`)}` : '',
  ].filter(Boolean);
  return parts.join(' · ');
}

function Progress({ row }: { row: BroadcastRow }) {
  const { t } = useTranslation();
  const done = row.sent + row.failed + row.blocked;
  const percent = row.total ? Math.round((done / row.total) * 100) : 100;
  return (
    <div className="space-y-1" aria-live="polite">
      <div className="flex justify-between text-sm">
        <span className="font-medium">{t('broadcast.progress')}</span>
        <span>{percent} %</span>
      </div>
      <div
        role="progressbar"
        aria-label={t('broadcast.progress')}
        aria-valuemin={0}
        aria-valuemax={row.total}
        aria-valuenow={done}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-700 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-700">{t('broadcast.counts', countsOf(row))}</p>
    </div>
  );
}

function countsOf(b: BroadcastRow) {
  return { sent: b.sent, total: b.total, failed: b.failed, blocked: b.blocked, remaining: b.remaining };
}

function History({ rows }: { rows: BroadcastRow[] }) {
  const { t, i18n } = useTranslation();
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'short', timeStyle: 'short' });
  return (
    <details className="text-sm">
      <summary className="cursor-pointer font-medium text-brand-800">
        {t('broadcast.history', { count: rows.length })}
      </summary>
      <ul className="mt-2 divide-y divide-slate-100">
        {rows.map((b) => (
          <li key={b.id} className="py-2">
            <p className="truncate">{summary(t, b)}</p>
            <p className="text-xs text-slate-600">
              {when.format(new Date(b.createdAt))} ·{' '}
              {b.status === 'sending' ? t('broadcast.statusSending') : t('broadcast.statusDone')} ·{' '}
              {t('broadcast.counts', countsOf(b))}
            </p>
          </li>
        ))}
      </ul>
    </details>
  );
}
