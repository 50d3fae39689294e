/**
 * The broadcast bar of /usuarios-conversaciones (spec 001 §2 Followers chat screen, §5 Broadcast;
 * issue 14 §3, issue 27 §5): a text and/or one of the bot's stored files (newest first, up to 100)
 * sent to the bot's followers. Before sending the owner sees the audience per channel (Telegram,
 * WhatsApp linked number, web; WhatsApp Cloud counted and marked as needing an approved template),
 * and confirms in a dialog (BroadcastConfirm.tsx) listing those counts. With nobody to reach the
 * send button is disabled and says why (the server refuses it too). The running broadcast's
 * progress, per channel, refreshes every second; once done, the last one's final counts stay, and
 * the history lists past broadcasts. Needs a text or a file: "Escribe un texto o selecciona un archivo".
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import {
  type AudienceAnswer,
  audienceQuery,
  type BroadcastRow,
  broadcastsQuery,
  sendBroadcast,
} from '../lib/broadcasts.ts';
import { filesQuery } from '../lib/files.ts';
import { AudienceList } from './BroadcastAudience.tsx';
import { BroadcastConfirm } from './BroadcastConfirm.tsx';
import { BroadcastProgress, ChannelCounts, countsOf } from './BroadcastProgress.tsx';
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
  const audience = useQuery(audienceQuery(chatbotId));
  const files = useQuery(filesQuery(chatbotId));
  const [text, setText] = useState('');
  const [fileKey, setFileKey] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  /** The confirmation: what is sent, and the audience read when it opened (undefined: loading). */
  const [confirming, setConfirming] = useState<{ what: string; audience?: AudienceAnswer | null } | null>(
    null,
  );
  const textId = useId();
  const fileId = useId();
  const whyId = useId();
  const rows = broadcasts.data?.broadcasts ?? [];
  const shown = rows.find((b) => b.status === 'sending') ?? rows[0];
  const nobody = audience.data?.reachable === 0;
  const fileName = (files.data ?? []).find((f) => f.id === fileKey)?.file_name;

  async function ask() {
    setError(null);
    if (!text.trim() && !fileKey) {
      setError(t('broadcast.nothing'));
      return;
    }
    const what = [text.trim(), fileName ? `📎 ${fileName}` : ''].filter(Boolean).join(' · ');
    setConfirming({ what });
    // The counts the owner confirms are read now, not the ones loaded with the page.
    const fresh = await queryClient
      .fetchQuery({ ...audienceQuery(chatbotId), staleTime: 0 })
      .catch(() => null);
    setConfirming((c) => (c ? { ...c, audience: fresh } : c));
  }

  async function send() {
    setConfirming(null);
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
      await queryClient.invalidateQueries({ queryKey: ['broadcasts', chatbotId, 'audience'] });
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
      {audience.data ? (
        <details className="text-sm" open={nobody}>
          <summary className="cursor-pointer font-medium text-brand-800">
            {t('broadcast.audience.summary', { count: audience.data.reachable })}
          </summary>
          <div className="mt-2">
            <AudienceList audience={audience.data} heading={t('broadcast.audience.title')} />
          </div>
        </details>
      ) : null}
      <form className="grid gap-2 min-[700px]:grid-cols-[1fr_220px_auto]" onSubmit={submitSends(ask)}>
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
          disabled={busy || nobody}
          aria-describedby={nobody ? whyId : undefined}
          className="rounded-lg bg-brand-700 px-4 py-2 text-sm font-semibold text-white disabled:bg-slate-400"
        >
          {busy ? t('broadcast.sending') : t('broadcast.send')}
        </button>
      </form>
      {nobody ? (
        <p id={whyId} className="text-sm text-amber-900">
          {t('broadcast.noAudience')}
        </p>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}
      {shown ? <BroadcastProgress row={shown} /> : null}
      {rows.length > 0 ? <History rows={rows} /> : null}
      {confirming ? (
        <BroadcastConfirm
          what={confirming.what}
          audience={confirming.audience}
          onConfirm={() => void send()}
          onCancel={() => setConfirming(null)}
        />
      ) : null}
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
          <li key={b.id} className="space-y-0.5 py-2">
            <p className="truncate">{summary(t, b)}</p>
            <p className="text-xs text-slate-600">
              {when.format(new Date(b.createdAt))} ·{' '}
              {b.status === 'sending' ? t('broadcast.statusSending') : t('broadcast.statusDone')} ·{' '}
              {t('broadcast.counts', countsOf(b))}
            </p>
            <ChannelCounts channels={b.channels} />
          </li>
        ))}
      </ul>
    </details>
  );
}
