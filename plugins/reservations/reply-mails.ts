/**
 * The owner's late reply to a web or IALanding visitor, by mail (issue 28 §2): the widget shows an
 * owner's message only while it is open, so a message the owner sends a visitor who left an e-mail
 * with a booking (with consent, not unsubscribed) and that the visitor has not answered
 * {@link replyMailDelayMs} later is mailed, with the link back to the conversation. One mail per
 * conversation per {@link REPLY_BUCKET_MS} at most: the jobs are keyed by conversation and 10-minute
 * window, and `reservation_reply_mails` keeps when the last mail went and up to which message, so a
 * message is mailed once and a mail that comes too soon after the last waits its turn.
 * "Not answered" is the test of absence: an open widget that shows the message without an answer
 * also gets the mail (no cross-process record of open streams is kept).
 */
import { z } from 'zod';
import { defineJob, type Job } from '../../engine/jobs/index.ts';
import { unsubscribeUrl, visitUrl } from './mail-links.ts';
import { MAIL_CHANNELS, VISITOR_MAIL_TEXTS } from './mail-texts.ts';
import { compose, type MailContext, mailDb, REPLY_BUCKET_MS, replyMailDelayMs } from './mails.ts';
import { findBotBasics, type ReservationsDb } from './queries.ts';
import { fillText, textsFor } from './texts.ts';

/** The last late-reply mail of a conversation (migration `202611280000_reservations_visitor_mail`). */
interface ReplyMailsTable {
  chatbot_id: string;
  channel: string;
  chat_id: string;
  /** When it went (the plugin's clock). */
  mailed_at: Date;
  /** The newest owner message it carried (`conversation_messages.created_at`). */
  mailed_until: Date;
}

/** A late reply of the owner to mail to an absent visitor. */
export const replyMailJob = defineJob({
  name: 'reservations.visitor-reply-mail',
  data: z.object({ chatbotId: z.string(), channel: z.string(), chatId: z.string(), since: z.string() }),
  retryDelaySeconds: 60,
  retryLimit: 6,
  leaseSeconds: 60,
  concurrency: 10,
});

/**
 * Queues the late-reply check of a message sent to a web visitor outside a request (an owner's
 * reply, a reminder, a broadcast): one job per conversation per {@link REPLY_BUCKET_MS}, due
 * {@link replyMailDelayMs} later; the handler mails only the owner's messages. Nothing for a
 * visitor without a booking e-mail given with consent.
 */
export async function queueReplyMail(
  ctx: MailContext,
  db: ReservationsDb,
  to: { chatbotId: string; channel: string; chatId: string },
): Promise<void> {
  if (!MAIL_CHANNELS.has(to.channel) || to.chatId === 'anonymous') return;
  if (!(await visitorEmail(db, to))) return;
  // Windows of the plugin's clock; a job for this window taken (queued or done) hands over to the next.
  const now = ctx.now().getTime();
  const bucket = Math.floor(now / REPLY_BUCKET_MS);
  const delay = replyMailDelayMs(ctx.env);
  const data = { ...to, since: new Date(now - 1000).toISOString() };
  const conversation = `${to.chatbotId}:${to.channel}:${to.chatId}`;
  const queued = await ctx.jobs.send(replyMailJob, data, {
    runAt: new Date(Date.now() + delay),
    key: `${conversation}:${bucket}`,
  });
  if (queued !== null) return;
  await ctx.jobs.send(replyMailJob, data, {
    runAt: new Date(Date.now() + ((bucket + 1) * REPLY_BUCKET_MS - now) + delay),
    key: `${conversation}:${bucket + 1}`,
  });
}

/** The newest booking of a visitor that may be mailed: its id and e-mail. */
async function visitorEmail(db: ReservationsDb, to: { chatbotId: string; channel: string; chatId: string }) {
  const row = await mailDb(db)
    .selectFrom('reservations_v1')
    .select(['reservation_id', 'customer_email'])
    .where('chatbot_ref', '=', to.chatbotId)
    .where('channel', '=', to.channel)
    .where('chat_id', '=', to.chatId)
    .where('customer_email', 'is not', null)
    .where('email_consent_at', 'is not', null)
    .where('email_unsubscribed_at', 'is', null)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.customer_email ? { reservationId: row.reservation_id, email: row.customer_email } : null;
}

/** The late-reply job's handler: mails the owner's messages the visitor has not answered, once. */
export function replyMailHandler(ctx: MailContext, db: ReservationsDb) {
  const store = db.withTables<{ reservation_reply_mails: ReplyMailsTable }>();
  return async (job: Job<z.infer<typeof replyMailJob.data>>): Promise<void> => {
    const { chatbotId, channel, chatId, since } = job.data;
    const to = await visitorEmail(db, { chatbotId, channel, chatId });
    if (!to) return;
    const last = await store
      .selectFrom('reservation_reply_mails')
      .selectAll()
      .where('chatbot_id', '=', chatbotId)
      .where('channel', '=', channel)
      .where('chat_id', '=', chatId)
      .executeTakeFirst();
    const now = ctx.now();
    const wait = last ? new Date(last.mailed_at).getTime() + REPLY_BUCKET_MS - now.getTime() : 0;
    if (wait > 0) {
      // The last mail went less than 10 minutes ago: this one waits until the window is over.
      await ctx.jobs.send(replyMailJob, job.data, {
        runAt: new Date(Date.now() + wait),
        key: `${chatbotId}:${channel}:${chatId}:after:${new Date(last!.mailed_at).toISOString()}`,
      });
      return;
    }
    let query = db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'created_at'])
      .where('chatbot_id', '=', chatbotId)
      .where('channel', '=', channel)
      .where('user_id', '=', chatId);
    // After a first mail: every owner message not mailed yet; before it, those from this job's on.
    query = last
      ? query.where('created_at', '>', new Date(last.mailed_until))
      : query.where('created_at', '>=', new Date(since));
    const messages = await query.orderBy('created_at', 'asc').orderBy('id', 'asc').execute();
    const lastVisitor = messages.map((m) => m.sender).lastIndexOf('user');
    // The visitor wrote after the owner's message: they were there, nothing to mail.
    const owner = messages.slice(lastVisitor + 1).filter((m) => m.sender === 'owner' && m.text.trim());
    if (owner.length === 0) return;
    const bot = await findBotBasics(db, chatbotId);
    if (!bot) return;
    const { lang } = textsFor(bot.idioma);
    const m = VISITOR_MAIL_TEXTS[lang];
    const vars = { business: bot.business_name };
    const back = visitUrl(ctx, { chatbotId, channel: channel as 'web', chatId });
    const { text, html } = compose(
      lang,
      bot.business_name,
      [fillText(m.replyBody, vars), ...owner.map((o) => o.text)],
      back,
      unsubscribeUrl(ctx, to.reservationId),
    );
    // Claim the mail first (optimistically: only if no other job mailed since `last` was read), so
    // two jobs of one conversation running at once send one mail; a failed send gives it back.
    const until = new Date(owner.at(-1)!.created_at);
    const claimed = last
      ? await store
          .updateTable('reservation_reply_mails')
          .set({ mailed_at: now, mailed_until: until })
          .where('chatbot_id', '=', chatbotId)
          .where('channel', '=', channel)
          .where('chat_id', '=', chatId)
          .where('mailed_at', '=', new Date(last.mailed_at))
          .returning('chat_id')
          .executeTakeFirst()
      : await store
          .insertInto('reservation_reply_mails')
          .values({ chatbot_id: chatbotId, channel, chat_id: chatId, mailed_at: now, mailed_until: until })
          .onConflict((oc) => oc.columns(['chatbot_id', 'channel', 'chat_id']).doNothing())
          .returning('chat_id')
          .executeTakeFirst();
    if (!claimed) {
      // Another job mailed meanwhile: look again once its window is over.
      await ctx.jobs.send(replyMailJob, job.data, {
        runAt: new Date(Date.now() + REPLY_BUCKET_MS),
        key: `${chatbotId}:${channel}:${chatId}:after:${now.toISOString()}`,
      });
      return;
    }
    try {
      await ctx.mailer.send({
        to: to.email,
        subject: fillText(m.replySubject, vars),
        text,
        html,
        link: back ?? '',
      });
    } catch (err) {
      if (last)
        await store
          .updateTable('reservation_reply_mails')
          .set({ mailed_at: new Date(last.mailed_at), mailed_until: new Date(last.mailed_until) })
          .where('chatbot_id', '=', chatbotId)
          .where('channel', '=', channel)
          .where('chat_id', '=', chatId)
          .execute();
      else
        await store
          .deleteFrom('reservation_reply_mails')
          .where('chatbot_id', '=', chatbotId)
          .where('channel', '=', channel)
          .where('chat_id', '=', chatId)
          .execute();
      throw err;
    }
    ctx.log.info({ chatbotId, channel, messages: owner.length }, 'owner’s late reply mailed to the visitor');
  };
}
