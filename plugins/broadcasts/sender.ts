/**
 * Sends a broadcast (issue 14 §3, issue 27 §5): a durable job that walks the broadcast's pending
 * recipients in order (Telegram, web, WhatsApp), one message at a time, each channel at its pace
 * ({@link RATES_PER_SECOND}: Telegram's limit is about 30 a second per bot; a WhatsApp linked number
 * one a second), through `ctx.send` (the plugins' outbound transformers, the channel's adapter
 * found by the registry, stored in each conversation as the owner's: a web or IALanding visitor
 * sees it in their thread on their next visit and at once on an open widget's live stream). A 429's `retry_after` is honoured by the
 * Telegram adapter's auto-retry; a follower who blocked the bot (403) is recorded and left out of
 * later broadcasts.
 *
 * No one gets it twice: a recipient is marked `sending` before its message goes out and `sent`
 * after. An attempt that died (a killed process) leaves at most the recipient in flight `sending`;
 * the next attempt marks it `sent` when its conversation holds the message (the channel took it),
 * else `unknown`, and does not send it again. No one is skipped: every other
 * recipient stays `pending` until an attempt sends it. A job runs for at most
 * {@link SLICE_MS} and then queues the next part, so no lease ever runs out mid-broadcast.
 *
 * A database outage (issue 24 §1) fails the attempt, never a recipient: an error that says the
 * database is unreachable (engine/store/errors.ts) ends the attempt with the recipient in flight
 * left `sending`, and the job's retry settles it as above (its conversation tells whether the
 * channel took it). Only the channel's own refusal marks a recipient `failed` or `blocked`.
 */
import { z } from 'zod';
import { VOICE_NOTE_TEXT } from '../../engine/channels/outbound.ts';
import { defineJob, type Job } from '../../engine/jobs/index.ts';
import type { OutboundMessage, PluginContext } from '../../engine/registry/index.ts';
import { publicFileUrl } from '../../engine/storage/index.ts';
import { isDatabaseUnavailable } from '../../engine/store/errors.ts';
import {
  type BroadcastsDb,
  findBotFile,
  findBroadcast,
  finishBroadcast,
  markBlocked,
  moveRecipient,
  nextPending,
  settleInterrupted,
} from './queries.ts';

/** Messages a second per broadcast (Telegram: about 30 per bot). */
export const RATE_PER_SECOND = 29;
/**
 * Messages a second per broadcast by channel (issue 27 §5): Telegram's {@link RATE_PER_SECOND};
 * a WhatsApp linked number one a second (WhatsApp bans numbers that burst; the adapter's own
 * `WHATSAPP_SEND_INTERVAL_MS` pace is 1 s too); web and IALanding visitors get a stored message,
 * kept to a pace that spares the database. Other channels go at Telegram's.
 */
export const RATES_PER_SECOND: Readonly<Record<string, number>> = {
  telegram: RATE_PER_SECOND,
  whatsapp: 1,
  web: 100,
  ialanding: 100,
};
/** The pace of `channel`, messages a second. */
export function rateOf(channel: string): number {
  return RATES_PER_SECOND[channel] ?? RATE_PER_SECOND;
}
/**
 * The window the rate is kept in, ms: however late the database work before a call makes it, no
 * second of calls ever starts more than the rate.
 */
export const RATE_WINDOW_MS = 1000;
/** How long one job sends before it hands over to the next part, ms. */
export const SLICE_MS = 10_000;

export const broadcastJob = defineJob({
  name: 'broadcasts.send',
  data: z.object({
    broadcastId: z.string(),
    part: z.number().int().min(0),
    /**
     * The start times (ms since the epoch) of the previous part's last calls, so the pace carries
     * over the hand-over instead of a new part starting a new second of its own.
     */
    starts: z.array(z.number()).max(100).optional(),
    /** The channel `starts` were calls of (Telegram when absent, as before issue 27). */
    startsOf: z.string().max(64).optional(),
  }),
  leaseSeconds: 30,
  retryLimit: 10,
  retryDelaySeconds: 5,
  concurrency: 5,
});

/** One channel's pace within a job: the gap between sends (ms), the calls a window may start, the last start times, the next slot. */
interface Pace {
  gap: number;
  perWindow: number;
  starts: number[];
  next: number;
}

/** A follower who cannot be reached again (blocked the bot, deleted their account, unknown chat). */
export function unreachable(err: unknown): boolean {
  const e = err as { error_code?: number; message?: string; description?: string };
  if (e?.error_code === 403) return true;
  return /\b403\b|forbidden|blocked by the user|user is deactivated|chat not found/i.test(
    `${e?.description ?? ''} ${e?.message ?? ''}`,
  );
}

/** The broadcast job's handler. */
export function broadcastHandler(
  ctx: Pick<PluginContext, 'send' | 'jobs' | 'now' | 'log' | 'publicUrl'>,
  db: BroadcastsDb,
) {
  return async (job: Job<z.infer<typeof broadcastJob.data>>): Promise<void> => {
    const { broadcastId, part } = job.data;
    const b = await findBroadcast(db, broadcastId);
    if (!b || b.status === 'done') return;
    const interrupted = await settleInterrupted(db, {
      ...b,
      text: b.text || (b.voice ? VOICE_NOTE_TEXT : ''),
    });
    if (interrupted > 0)
      ctx.log.warn(
        { broadcastId, interrupted },
        'broadcast resumed; recipients in flight are not sent again',
      );
    const file = b.file_id ? await findBotFile(db, b.chatbot_id, b.file_id) : undefined;
    const message: OutboundMessage = {
      text: b.text,
      ...(file
        ? {
            attachment: {
              url: publicFileUrl(file.file_url, ctx.publicUrl),
              type: file.file_type,
              name: file.file_name,
              mime: file.mime_type,
              fileId: file.id,
              caption: '',
            },
          }
        : {}),
      ...(b.voice ? { voice: { data: Buffer.from(b.voice), mime: 'audio/ogg' as const } } : {}),
    };
    const started = Date.now();
    // Each recipient costs one call per part (text, file, voice note): the pace counts calls.
    const callsEach = Math.max(1, (b.text ? 1 : 0) + (file ? 1 : 0) + (b.voice ? 1 : 0));
    // One pace per channel (recipients come grouped by channel, sendOrder): send times follow a
    // fixed schedule one gap apart (not "a gap after the last send finished"), so the database work
    // and timer lateness of each message do not slow the pace below the rate. The schedule alone
    // lets a late call bunch with the next ones, so the calls' real start times are also kept to
    // the rate in any window of RATE_WINDOW_MS.
    const paces = new Map<string, Pace>();
    const paceOf = (channel: string): Pace => {
      let pace = paces.get(channel);
      if (!pace) {
        const rate = rateOf(channel);
        const perWindow = Math.max(1, Math.floor(rate / callsEach));
        const carried = (job.data.startsOf ?? 'telegram') === channel ? (job.data.starts ?? []) : [];
        const starts = carried.slice(-perWindow);
        const gap = (1000 * callsEach) / rate;
        pace = { gap, perWindow, starts, next: Math.max(Date.now(), (starts.at(-1) ?? 0) + gap) };
        paces.set(channel, pace);
      }
      return pace;
    };
    let lastChannel = job.data.startsOf ?? 'telegram';
    for (;;) {
      if (job.signal.aborted) throw new Error('broadcast attempt aborted');
      if (Date.now() - started > SLICE_MS) {
        await ctx.jobs.send(
          broadcastJob,
          {
            broadcastId,
            part: part + 1,
            starts: paces.get(lastChannel)?.starts ?? [],
            startsOf: lastChannel,
          },
          { key: `${broadcastId}:${part + 1}` },
        );
        return;
      }
      const batch = await nextPending(db, broadcastId, 50);
      if (batch.length === 0) break;
      for (const r of batch) {
        const key = { id: broadcastId, channel: r.channel, chatId: r.chat_id };
        // Wait for the pace first, so a process killed while waiting leaves this recipient pending.
        const pace = paceOf(r.channel);
        lastChannel = r.channel;
        const now = Date.now();
        if (pace.next > now) await new Promise((resolve) => setTimeout(resolve, pace.next - now));
        if (!(await moveRecipient(db, key, 'pending', 'sending'))) continue;
        pace.next = Math.max(pace.next, now) + pace.gap;
        if (pace.starts.length >= pace.perWindow) {
          const wait = pace.starts[pace.starts.length - pace.perWindow]! + RATE_WINDOW_MS - Date.now();
          if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        }
        pace.starts.push(Date.now());
        if (pace.starts.length > pace.perWindow) pace.starts.shift();
        try {
          // Issue 28 §1: a Cloud API follower outside the 24-hour window gets the MARKETING template.
          const out: OutboundMessage =
            r.audience === 'whatsappCloud'
              ? { ...message, template: { id: 'broadcast', params: [b.text] } }
              : message;
          await ctx.send({ chatbotId: b.chatbot_id, channel: r.channel, chatId: r.chat_id }, out, {
            sender: 'owner',
            broadcast: true,
          });
        } catch (err) {
          // The message may have gone out and not been stored: the retry settles it from the conversation.
          if (isDatabaseUnavailable(err)) throw err;
          if (unreachable(err)) {
            await moveRecipient(db, key, 'sending', 'blocked', {
              error: String((err as Error).message ?? err).slice(0, 300),
            });
            await markBlocked(db, b.chatbot_id, r.channel, r.chat_id, ctx.now());
          } else {
            ctx.log.warn({ err, broadcastId, chatId: r.chat_id }, 'broadcast message failed');
            await moveRecipient(db, key, 'sending', 'failed', {
              error: String((err as Error).message ?? err).slice(0, 300),
            });
          }
          if (Date.now() - started > SLICE_MS) break;
          continue;
        }
        // Sent. A failure to record it ends the attempt with the recipient `sending` (see above).
        await moveRecipient(db, key, 'sending', 'sent', { sent_at: ctx.now() });
        if (Date.now() - started > SLICE_MS) break;
      }
    }
    await finishBroadcast(db, broadcastId, ctx.now());
    ctx.log.info({ broadcastId }, 'broadcast done');
  };
}
