/**
 * Connection health changes, told to whoever listens (issue 27 §1: "a channel is down" — a
 * Telegram connection failing, WhatsApp logged out or its Cloud token rejected). An adapter calls
 * {@link reportHealth} where it records a connection error (`ok: false`) and where the connection
 * works again (`ok: true`); only a change of this process's view is raised (once per transition,
 * not per retry; the first report of each connection after a start is raised too), as a NOTIFY on {@link HEALTH_CHANNEL} with `{ chatbotId, channel, ok, reason }`
 * (JSON). The notifications plugin listens and keeps the durable state, so several nodes seeing the
 * same failure tell the owner once. Never throws: a failed NOTIFY is logged.
 */
import type { Kysely } from 'kysely';
import type { Logger } from '../logger.ts';
import type { Database } from '../store/database.ts';
import { notifyMany } from '../store/queries/messages.ts';

/** The NOTIFY channel of health changes. */
export const HEALTH_CHANNEL = 'charla_channel_health';

/** This process's last view per `channel\0chatbotId` (false: failing); at most 20,000 kept. */
const lastOk = new Map<string, boolean>();

/** A connection's health as an adapter saw it. */
export interface HealthReport {
  chatbotId: string;
  /** The adapter's id (`telegram`, `whatsapp`). */
  channel: string;
  ok: boolean;
  /** What failed, in the channel's words (cut to 300 characters). */
  reason?: string;
}

/** Raises a health change (see the module comment); a repeat of the same state raises nothing. */
export async function reportHealth<DB>(
  ctx: { db: Kysely<DB>; log: Logger },
  report: HealthReport,
): Promise<void> {
  const key = `${report.channel}\0${report.chatbotId}`;
  // Unknown (a fresh process): raised, so a recovery seen first after a restart is told too (the
  // listener's durable state keeps a first failure from being told twice).
  if (lastOk.get(key) === report.ok) return;
  if (lastOk.size >= 20_000) lastOk.clear();
  lastOk.set(key, report.ok);
  const payload = JSON.stringify({ ...report, reason: report.reason?.slice(0, 300) ?? null });
  try {
    await notifyMany(ctx.db as unknown as Kysely<Database>, [{ channel: HEALTH_CHANNEL, payload }]);
  } catch (err) {
    ctx.log.warn({ err, channel: report.channel }, 'could not report a channel health change');
  }
}
