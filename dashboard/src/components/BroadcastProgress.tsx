/**
 * A broadcast's progress and final counts (issue 14 §3, issue 27 §5): a progress bar over the
 * recipients it is sent to, the totals, and per channel sent, failed (with why: channel not
 * connected, interrupted, refused), blocked, pending and skipped with the reason (WhatsApp Cloud: needs an approved template; blocked the bot). Shown while it
 * runs (refreshed every second) and, once done, as the last broadcast's result.
 */
import { useTranslation } from 'react-i18next';
import type { BroadcastChannel, BroadcastRow } from '../lib/broadcasts.ts';

/** The counts of a row or channel for the `broadcast.counts` text. */
export function countsOf(b: Pick<BroadcastRow, 'sent' | 'total' | 'failed' | 'blocked' | 'remaining'>) {
  return { sent: b.sent, total: b.total, failed: b.failed, blocked: b.blocked, remaining: b.remaining };
}

/** The per-channel lines of a broadcast (one per audience with recipients). */
export function ChannelCounts({ channels }: { channels: BroadcastChannel[] }) {
  const { t } = useTranslation();
  if (channels.length === 0) return null;
  return (
    <ul className="space-y-0.5 text-xs text-slate-700">
      {channels.map((c) => (
        <li key={c.audience} data-audience={c.audience}>
          <span className="font-medium">{t(`broadcast.audience.${c.audience}`)}:</span>{' '}
          {c.total > 0 ? t('broadcast.counts', countsOf(c)) : null}
          {c.failures.map((f) => (
            <span key={f.reason} className="text-red-800">
              {' · '}
              {t(`broadcast.failures.${f.reason}`, { count: f.count })}
            </span>
          ))}
          {c.skipped.map((s) => (
            <span key={s.reason} className="text-amber-800">
              {c.total > 0 ? ' · ' : ''}
              {t(`broadcast.skipped.${s.reason}`, { count: s.count })}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** The running (or last) broadcast: bar, totals and the per-channel lines. */
export function BroadcastProgress({ row }: { row: BroadcastRow }) {
  const { t } = useTranslation();
  const done = row.sent + row.failed + row.blocked;
  const percent = row.total ? Math.round((done / row.total) * 100) : 100;
  const label = row.status === 'sending' ? t('broadcast.progress') : t('broadcast.lastResult');
  return (
    <div className="space-y-1 rounded-xl bg-slate-50 p-3" aria-live="polite" data-broadcast={row.id}>
      <div className="flex justify-between text-sm">
        <span className="font-medium">{label}</span>
        <span>{percent} %</span>
      </div>
      <div
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={row.total}
        aria-valuenow={done}
        className="h-2.5 overflow-hidden rounded-full bg-slate-200"
      >
        <div className="h-full bg-brand-700 transition-all" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-slate-700">
        {t('broadcast.counts', countsOf(row))}
        {row.skipped > 0 ? ` · ${t('broadcast.skippedTotal', { count: row.skipped })}` : ''}
      </p>
      <ChannelCounts channels={row.channels} />
    </div>
  );
}
