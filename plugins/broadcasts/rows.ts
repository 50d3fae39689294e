/**
 * A broadcast's progress as the API answers it (issue 14 §3, issue 27 §5): totals and, per
 * audience, sent, failed (including deliveries left unknown by a crash), blocked, remaining and
 * skipped by reason, from the rows of queries.ts.
 */
import {
  AUDIENCES,
  type Audience,
  type BroadcastChannel,
  type BroadcastRow,
  FAILURE_REASONS,
  type FailureReason,
  SKIP_REASONS,
  type SkipReason,
} from './api.ts';
import type { listBroadcasts, recipientCounts } from './queries.ts';

type ListRow = Awaited<ReturnType<typeof listBroadcasts>>[number];
type CountRow = Awaited<ReturnType<typeof recipientCounts>>[number];

/** The audience a stored row counts under: old rows carry the channel (`ialanding` is web). */
function audienceOf(stored: string): Audience | null {
  if (stored === 'ialanding') return 'web';
  return (AUDIENCES as readonly string[]).includes(stored) ? (stored as Audience) : null;
}

/** The per-audience counts of one broadcast, in AUDIENCES order, only audiences with recipients. */
export function channelsOf(counts: readonly CountRow[]): BroadcastChannel[] {
  const by = new Map<Audience, BroadcastChannel>();
  for (const c of counts) {
    const audience = audienceOf(c.audience);
    if (!audience) continue;
    const ch = by.get(audience) ?? {
      audience,
      total: 0,
      sent: 0,
      failed: 0,
      blocked: 0,
      remaining: 0,
      skipped: [],
      failures: [],
    };
    by.set(audience, ch);
    if (c.status === 'skipped') {
      const reason: SkipReason = (SKIP_REASONS as readonly string[]).includes(c.reason ?? '')
        ? (c.reason as SkipReason)
        : 'template';
      const known = ch.skipped.find((s) => s.reason === reason);
      if (known) known.count += c.n;
      else ch.skipped.push({ reason, count: c.n });
      continue;
    }
    ch.total += c.n;
    if (c.status === 'sent') ch.sent += c.n;
    else if (c.status === 'failed' || c.status === 'unknown') {
      ch.failed += c.n;
      const reason: FailureReason = (FAILURE_REASONS as readonly string[]).includes(c.reason ?? '')
        ? (c.reason as FailureReason)
        : 'channel';
      const known = ch.failures.find((f) => f.reason === reason);
      if (known) known.count += c.n;
      else ch.failures.push({ reason, count: c.n });
    } else if (c.status === 'blocked') ch.blocked += c.n;
    else ch.remaining += c.n;
  }
  return AUDIENCES.flatMap((a) => (by.has(a) ? [by.get(a)!] : []));
}

/** One broadcast as {@link BroadcastRow}, from its list row and its recipients' counts. */
export function broadcastRow(row: ListRow, counts: readonly CountRow[]): BroadcastRow {
  const sent = row.sent ?? 0;
  const failed = (row.failed ?? 0) + (row.unknown ?? 0);
  const blocked = row.blocked ?? 0;
  const channels = channelsOf(counts);
  return {
    id: row.id,
    text: row.text,
    fileName: row.file_name ?? null,
    voice: Boolean(row.has_voice),
    preset: row.preset,
    status: row.status,
    total: row.total,
    sent,
    failed,
    blocked,
    remaining: Math.max(0, row.total - sent - failed - blocked),
    skipped: channels.reduce((n, c) => n + c.skipped.reduce((m, s) => m + s.count, 0), 0),
    channels,
    createdAt: new Date(row.created_at).toISOString(),
    finishedAt: row.finished_at ? new Date(row.finished_at).toISOString() : null,
  };
}
