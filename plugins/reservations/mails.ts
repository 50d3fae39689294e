/**
 * Mails to web and IALanding visitors who left an e-mail with their booking (issue 28 §2; spec 001
 * §9 reminders 24 h and 2 h). The widget reaches a visitor only while it is open; with the e-mail
 * they gave (with consent: `email_consent_at`) they get, by `ctx.mailer`, in the bot's language:
 *
 * - the confirmation, with the booking's .ics (mail-links.ts `bookingIcs`), at once;
 * - the 24 h and 2 h reminders, when due (durable jobs, due times on the plugin's clock like
 *   reminders.ts), unless the calendar turned that reminder off;
 * - the owner's late reply (reply-mails.ts): a message the owner sent the visitor that the
 *   visitor has not answered {@link replyMailDelayMs} later is mailed, at most one mail per
 *   conversation per {@link REPLY_BUCKET_MS}.
 *
 * Every mail carries the link back to the conversation (the same visitor id, so the thread is
 * restored) and an unsubscribe link; after it (`email_unsubscribed_at`) nothing more is mailed for
 * that booking. Jobs are keyed, so each mail is queued once; a handler re-reads the booking and
 * sends nothing for a cancelled or moved one.
 */
import { z } from 'zod';
import { defineJob, type Job } from '../../engine/jobs/index.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { bookingIcs, unsubscribeUrl, visitUrl } from './mail-links.ts';
import { MAIL_CHANNELS, VISITOR_MAIL_TEXTS } from './mail-texts.ts';
import { findBotBasics, findConfig, type Reservation, type ReservationsDb } from './queries.ts';
import { REMINDERS } from './reminders.ts';
import { fillText, formatWhen, partyText, reminderText, textsFor } from './texts.ts';

/** The columns of migration `202611280000_reservations_visitor_mail`. */
interface MailColumns {
  email_consent_at: Date | null;
  email_unsubscribed_at: Date | null;
}

/** The store with the mail columns. */
export function mailDb(db: ReservationsDb) {
  return db.withTables<{ reservations_v1: MailColumns }>();
}

/** At most one late-reply mail per conversation in this window, ms (10 min). */
export const REPLY_BUCKET_MS = 10 * 60_000;

/** What the mail handlers need of the plugin's context. */
export type MailContext = Pick<
  PluginContext,
  'mailer' | 'jobs' | 'now' | 'log' | 'publicUrl' | 'secrets' | 'env'
>;

/**
 * How long after the owner's message it is mailed when the visitor has not answered, ms:
 * `RESERVATIONS_REPLY_MAIL_DELAY_SECONDS` (default 300; the tests shorten it).
 */
export function replyMailDelayMs(env: Readonly<Record<string, string | undefined>>): number {
  const s = z.coerce.number().int().min(1).max(86_400).safeParse(env.RESERVATIONS_REPLY_MAIL_DELAY_SECONDS);
  return (s.success ? s.data : 300) * 1000;
}

/** One booking mail: the confirmation, or a reminder. */
export const bookingMailJob = defineJob({
  name: 'reservations.visitor-mail',
  data: z.object({
    reservationId: z.string(),
    kind: z.enum(['confirmation', '24h', '2h']),
    startsAt: z.string(),
  }),
  retryDelaySeconds: 60,
  retryLimit: 6,
  leaseSeconds: 60,
  concurrency: 10,
});

/**
 * Stores the visitor's e-mail on their booking with their consent (now) and queues its mails
 * (confirmation at once when confirmed, and the reminders ahead). The e-mail was checked (zod).
 */
export async function saveVisitorEmail(
  ctx: MailContext,
  db: ReservationsDb,
  r: Reservation,
  email: string,
): Promise<void> {
  const now = ctx.now();
  await mailDb(db)
    .updateTable('reservations_v1')
    .set({ customer_email: email, email_consent_at: now, email_unsubscribed_at: null, updated_at: now })
    .where('reservation_id', '=', r.reservation_id)
    .execute();
  if (r.status === 'confirmed') await queueBookingMails(ctx, db, r);
}

/**
 * Queues a confirmed booking's mails if its visitor gave an e-mail with consent: the
 * confirmation now, the reminders the calendar enables that are still ahead. Keyed by booking,
 * kind and start (a moved booking gets new ones). Returns how many were queued.
 */
export async function queueBookingMails(
  ctx: MailContext,
  db: ReservationsDb,
  r: Reservation,
): Promise<number> {
  const row = await mailRow(db, r.reservation_id);
  if (row?.status !== 'confirmed' || !mayMail(row)) return 0;
  const config = await findConfig(db, row.chatbot_ref);
  const startsAt = new Date(row.starts_at);
  const now = ctx.now().getTime();
  let queued = 0;
  const send = async (kind: 'confirmation' | '24h' | '2h', dueInMs: number) => {
    const id = await ctx.jobs.send(
      bookingMailJob,
      { reservationId: row.reservation_id, kind, startsAt: startsAt.toISOString() },
      {
        runAt: new Date(Date.now() + dueInMs),
        key: `${row.reservation_id}:${kind}:${startsAt.toISOString()}`,
      },
    );
    if (id) queued++;
  };
  await send('confirmation', 0);
  for (const kind of ['24h', '2h'] as const) {
    if (config && !(kind === '24h' ? config.reminder_24h : config.reminder_2h)) continue;
    const due = startsAt.getTime() - REMINDERS[kind];
    if (due > now) await send(kind, due - now);
  }
  return queued;
}

/** A reservation with its mail columns. */
async function mailRow(db: ReservationsDb, reservationId: string) {
  return mailDb(db)
    .selectFrom('reservations_v1')
    .selectAll()
    .where('reservation_id', '=', reservationId)
    .executeTakeFirst();
}

/** Whether a booking's visitor may be mailed: an e-mail with consent, not unsubscribed, a web channel. */
function mayMail(r: {
  customer_email: string | null;
  email_consent_at: Date | null;
  email_unsubscribed_at: Date | null;
  channel: string | null;
  chat_id: string | null;
}): boolean {
  return (
    !!r.customer_email &&
    r.email_consent_at !== null &&
    r.email_unsubscribed_at === null &&
    !!r.channel &&
    MAIL_CHANNELS.has(r.channel) &&
    !!r.chat_id
  );
}

/** Stops every mail of a booking (the unsubscribe link). Returns the booking, if any. */
export async function unsubscribe(db: ReservationsDb, reservationId: string, now: Date) {
  await mailDb(db)
    .updateTable('reservations_v1')
    .set({ email_unsubscribed_at: now })
    .where('reservation_id', '=', reservationId)
    .where('email_unsubscribed_at', 'is', null)
    .execute();
  return mailRow(db, reservationId);
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A visitor mail's text and HTML: paragraphs, the link back, the unsubscribe line. */
export function compose(
  lang: keyof typeof VISITOR_MAIL_TEXTS,
  business: string,
  paragraphs: string[],
  back: string | null,
  unsubscribeLink: string | null,
) {
  const m = VISITOR_MAIL_TEXTS[lang];
  const text = [
    business,
    '',
    ...paragraphs,
    '',
    ...(back ? [`${m.backLink}: ${back}`, ''] : []),
    ...(unsubscribeLink ? [`${m.unsubscribeLine} ${unsubscribeLink}`] : []),
  ].join('\n');
  const html = `<!doctype html><html lang="${lang}"><body style="font-family:system-ui,sans-serif;color:#1f2937">
<p style="font-size:20px;font-weight:700;color:#0f766e">${escapeHtml(business)}</p>
${paragraphs.map((p) => `<p style="white-space:pre-wrap">${escapeHtml(p)}</p>`).join('\n')}
${back ? `<p><a href="${escapeHtml(back)}" style="display:inline-block;background:#0f766e;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none">${escapeHtml(m.backLink)}</a></p>` : ''}
${unsubscribeLink ? `<p style="font-size:13px;color:#6b7280">${escapeHtml(m.unsubscribeLine)} <a href="${escapeHtml(unsubscribeLink)}">${escapeHtml(unsubscribeLink)}</a></p>` : ''}
</body></html>`;
  return { text, html };
}

/** The booking mail job's handler: re-reads the booking and mails the visitor. */
export function bookingMailHandler(ctx: MailContext, db: ReservationsDb) {
  return async (job: Job<z.infer<typeof bookingMailJob.data>>): Promise<void> => {
    const { reservationId, kind, startsAt } = job.data;
    const r = await mailRow(db, reservationId);
    if (r?.status !== 'confirmed' || !mayMail(r)) return;
    if (new Date(r.starts_at).toISOString() !== startsAt) return; // moved: its new jobs mail
    const bot = await findBotBasics(db, r.chatbot_ref);
    if (!bot) return;
    const config = await findConfig(db, r.chatbot_ref);
    if (kind !== 'confirmation' && config && !(kind === '24h' ? config.reminder_24h : config.reminder_2h))
      return;
    const timezone = config?.timezone ?? 'Europe/Madrid';
    const { lang, t } = textsFor(bot.idioma);
    const m = VISITOR_MAIL_TEXTS[lang];
    const vars = {
      business: bot.business_name,
      when: formatWhen(lang, new Date(r.starts_at), timezone),
      party: partyText(t, r.party_size),
      code: r.reservation_code,
    };
    const back = visitUrl(ctx, { chatbotId: r.chatbot_ref, channel: r.channel as 'web', chatId: r.chat_id! });
    const body =
      kind === 'confirmation'
        ? fillText(m.confirmBody, vars)
        : reminderText(bot.idioma, kind, r, bot.business_name, timezone);
    const { text, html } = compose(
      lang,
      bot.business_name,
      [body],
      back,
      unsubscribeUrl(ctx, r.reservation_id),
    );
    const ics = kind === 'confirmation' ? await bookingIcs(r, bot.business_name, back) : null;
    await ctx.mailer.send({
      to: r.customer_email!,
      subject: fillText(kind === 'confirmation' ? m.confirmSubject : m.reminderSubject, vars),
      text,
      html,
      link: back ?? '',
      ...(ics ? { attachments: [ics] } : {}),
    });
    ctx.log.info({ reservationId, kind }, 'visitor booking mail sent');
  };
}
