/**
 * Notices on the owner's own Telegram (issue 27 §1: "to the owner's Telegram when linked"): the
 * notifications plugin emits {@link OWNER_NOTICE_EVENT}; this listener stores a durable job (keyed
 * by the notice's `key`, so a replayed event sends once) whose handler sends the text to the chat
 * the owner linked to the bot (phone.ts, `conversation_owner_phones`) through the bot's channel
 * adapter (`ctx.send`, not stored in any conversation). A channel that refuses throws: the job is
 * retried. No linked chat (or it was unlinked meanwhile): nothing is sent.
 * It also answers {@link OWNER_TELEGRAM_QUERY} (whether any of an owner's bots has a linked chat).
 */
import { z } from 'zod';
import { defineJob } from '../../engine/jobs/index.ts';
import { type PluginContext, type PluginJob, pluginJob } from '../../engine/registry/index.ts';
import { OWNER_NOTICE_EVENT, OWNER_TELEGRAM_QUERY, OwnerNotice } from './api.ts';
import { type ConversationsDb, conversationsDb } from './queries.ts';

/** The job that sends one notice (data: {@link OwnerNotice}). */
export const ownerNoticeJob = defineJob({
  name: 'conversations.owner-notice',
  data: OwnerNotice,
  retryLimit: 8,
  retryDelaySeconds: 20,
  leaseSeconds: 60,
  concurrency: 5,
});

/** The owner's linked chats: of one bot, or of all their bots (oldest link first). */
async function linkedChats(db: ConversationsDb, ownerId: string, chatbotId: string | null) {
  let q = db
    .selectFrom('conversation_owner_phones as p')
    .innerJoin('chatbots as c', 'c.id', 'p.chatbot_id')
    .select(['p.chatbot_id', 'p.channel', 'p.chat_id'])
    .where('c.user_id', '=', ownerId)
    .where('p.chat_id', 'is not', null)
    .where('p.channel', 'is not', null)
    .orderBy('p.linked_at', 'asc');
  if (chatbotId) q = q.where('p.chatbot_id', '=', chatbotId);
  return q.execute();
}

const Query = z.object({
  ownerId: z.string(),
  reply: z.custom<(linked: boolean) => void>((v) => typeof v === 'function'),
});

/**
 * Registers the listeners (call in the plugin's `setup`) and returns the job to contribute.
 */
export function ownerNotices(ctx: PluginContext): PluginJob {
  const db = conversationsDb(ctx.db);
  ctx.events.on(OWNER_NOTICE_EVENT, async (payload) => {
    const notice = OwnerNotice.parse(payload);
    await ctx.jobs.send(ownerNoticeJob, notice, { key: notice.key });
  });
  ctx.events.on(OWNER_TELEGRAM_QUERY, async (payload) => {
    const q = Query.parse(payload);
    const chats = await linkedChats(db, q.ownerId, null);
    q.reply(chats.some((c) => c.channel === 'telegram'));
  });
  return pluginJob(ownerNoticeJob, async (job) => {
    const n = job.data;
    const chat = (await linkedChats(db, n.ownerId, n.chatbotId)).find((c) => c.channel === 'telegram');
    if (!chat?.chat_id || !chat.channel) return;
    await ctx.send(
      { chatbotId: chat.chatbot_id, channel: chat.channel, chatId: chat.chat_id },
      { text: n.text },
      { store: false },
    );
  });
}
