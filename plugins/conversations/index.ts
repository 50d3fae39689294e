/**
 * Followers' conversations (issue 14; spec 001 §2 Followers chat screen): the owner reads every
 * chat live on /usuarios-conversaciones, writes to a follower through their channel, and takes
 * over: while a conversation is paused the bot stays silent for that follower (their messages are
 * still stored and shown) until the quiet period after the owner's last message ends. From the
 * phone (phone.ts): the owner's linked Telegram chat gets each follower message, and a reply to
 * one goes to that follower and pauses the bot for them.
 * Through the registry only: a middleware (linking, the phone relay, forwarding, the silence),
 * owner routes, its own tables, a daily job, and `ctx.onMessages` for the live screen.
 */
import { z } from 'zod';
import { defineJob } from '../../engine/jobs/index.ts';
import {
  definePlugin,
  type FeaturePlugin,
  type OutboundMessage,
  type PluginContext,
  pluginJob,
  type TurnContext,
} from '../../engine/registry/index.ts';
import type { RecordingEffects } from '../audio-effects/api.ts';
import { NEEDS_PERSON_EVENT, NeedsPerson } from './api.ts';
import { fileRoutes } from './file-routes.ts';
import { migrations } from './migrations.ts';
import { NameMemo, saveBookingName, saveFollowerName } from './names.ts';
import { sendAsOwner } from './owner-delivery.ts';
import { ownerStoredFiles } from './owner-files.ts';
import { ownerNotices } from './owner-notice.ts';
import {
  claimLinkCode,
  findForward,
  forwardText,
  LINK_CODE,
  phoneTexts,
  pruneForwards,
  recordForwards,
} from './phone.ts';
import { phoneRoutes } from './phone-routes.ts';
import { type ConversationsDb, conversationsDb, ownerConversationsData } from './queries.ts';
import { conversationRoutes } from './routes.ts';
import { markNeedsPerson } from './status.ts';
import { statusRoutes } from './status-routes.ts';
import { TurnStateCache } from './turn-state.ts';

/** The daily clean-up of old forwards (phone.ts). */
export const pruneForwardsJob = defineJob({ name: 'conversations.prune-forwards', data: z.object({}) });

/**
 * A message the owner wrote from their linked chat: a reply to a forwarded message goes to that
 * follower as the owner's and pauses the bot for them; anything else gets the help text.
 */
async function relayOwnerMessage(
  ctx: PluginContext,
  db: ConversationsDb,
  state: TurnStateCache,
  turn: TurnContext,
) {
  const texts = phoneTexts(turn.bot.idioma);
  const to = turn.inbound.replyTo ? await findForward(db, turn.bot.id, turn.inbound.replyTo) : undefined;
  if (!to) return { reply: texts.help };
  // Issue 27 §3: a voice note goes to the follower as the owner's (read through the channel's file
  // API); other media still get the "text only" answer.
  const media = turn.inbound.attachments?.[0];
  let message: OutboundMessage;
  if (media?.type === 'voice') {
    let voice: Buffer;
    try {
      voice = (await turn.media(0)).data;
    } catch (err) {
      ctx.log.warn({ err, chatbotId: turn.bot.id }, 'owner voice note not downloaded');
      return { reply: texts.failed(err instanceof Error ? err.message : String(err)) };
    }
    message = { text: '', voice: { data: voice, mime: 'audio/ogg' } };
  } else {
    const text = turn.inbound.text.trim();
    if (!text) return { reply: texts.textOnly };
    message = { text };
  }
  try {
    await sendAsOwner(
      ctx,
      db,
      state,
      turn.bot,
      { chatbotId: turn.bot.id, channel: to.channel, chatId: to.user_id },
      message,
    );
  } catch (err) {
    return { reply: texts.failed(err instanceof Error ? err.message : String(err)) };
  }
  return { silent: true as const, reason: 'the owner answered a follower from their phone' };
}

/** Builds the conversations plugin. */
export function createConversationsPlugin(deps: { effects: RecordingEffects }): FeaturePlugin {
  return definePlugin({
    id: 'conversations',
    dependencies: ['audio-effects'],
    migrations,
    setup(ctx) {
      const db = conversationsDb(ctx.db);
      // The owner's linked chat and the paused followers, read from memory on a common turn and
      // forgotten on change by every process (turn-state.ts).
      // Not awaited, so the start does not wait on the LISTEN connection; until it is in place, the
      // middleware reads the database on every turn.
      const state = new TurnStateCache(db, () => ctx.now());
      const listening = state.listen(ctx);
      listening.catch((err) => ctx.log.warn({ err }, 'conversations: not listening for takeovers'));
      // Issue 27 §4.2: the name a follower gave in a booking names them in the inbox; the names
      // this process saved lately (names.ts).
      ctx.events.on('reservations.booking', (payload) => saveBookingName(db, payload));
      const names = new NameMemo();
      // Issue 27 §2: a follower asked for a person (the notifications plugin's hand-off): the
      // conversation's state says so in the inbox.
      ctx.events.on(NEEDS_PERSON_EVENT, async (payload) => {
        const key = NeedsPerson.parse(payload);
        await markNeedsPerson(
          ctx.db,
          { chatbotId: key.chatbotId, channel: key.channel, chatId: key.userId },
          ctx.now(),
        );
      });
      return {
        middleware: [
          async (turn) => {
            const { inbound, bot } = turn;
            const follower = { chatbotId: bot.id, channel: inbound.channel, chatId: inbound.follower.id };
            // Issue 27 §4.2: the name and handle the channel gave (a write only when they change).
            await saveFollowerName(db, names, follower, inbound.follower).catch((err) =>
              ctx.log.warn({ err, chatbotId: bot.id }, 'follower name not saved'),
            );
            // The owner opens the dashboard's deep link: `/start own-…` links this chat.
            const code = LINK_CODE.exec(inbound.text.trim());
            if (code) {
              const linked = await claimLinkCode(
                db,
                bot.id,
                code[1]!,
                { channel: inbound.channel, chatId: inbound.follower.id },
                ctx.now(),
              );
              if (linked) await state.changed(follower);
              const texts = phoneTexts(bot.idioma);
              return { reply: linked ? texts.linked(bot.business_name) : texts.badCode };
            }
            const linked = await state.linkedChat(bot.id);
            if (linked && linked.channel === inbound.channel && linked.chatId === inbound.follower.id)
              return relayOwnerMessage(ctx, db, state, turn);
            // Every follower message reaches the owner's phone, paused or not; the turn does not wait.
            if (linked)
              void ctx
                .send(
                  { chatbotId: bot.id, channel: linked.channel, chatId: linked.chatId },
                  { text: forwardText(phoneTexts(bot.idioma), inbound) },
                  { store: false },
                )
                .then((r) =>
                  recordForwards(db, bot.id, r.messageIds, {
                    channel: inbound.channel,
                    userId: inbound.follower.id,
                  }),
                )
                .catch((err) =>
                  ctx.log.warn({ err, chatbotId: bot.id }, 'forward to the owner’s phone failed'),
                );
            if (await state.paused(follower, turn.now))
              return { silent: true, reason: 'the owner took over this conversation' };
            return undefined;
          },
        ],
        // Issue 26 §5: conversation states and the linked phone in the owner's export (tables cascade).
        // Issue 27 §3: the owner's voice notes to web visitors are in the storage (export, deletion).
        ownerData: {
          export: (ownerId) => ownerConversationsData(db, ownerId),
          storedObjects: (ownerId) => ownerStoredFiles(db, ownerId),
        },
        routes: {
          prefix: '',
          plugin: async (app) => {
            await app.register(conversationRoutes(ctx, db, state, deps.effects, names));
            await app.register(phoneRoutes(ctx, db, state));
            await app.register(fileRoutes(ctx, db, state)); // issue 27 §3: files from the inbox
            await app.register(statusRoutes(ctx));
          },
        },
        jobs: [
          ownerNotices(ctx), // issue 27 §1: notices on the owner's linked Telegram
          pluginJob(pruneForwardsJob, async () => {
            const n = await pruneForwards(db, ctx.now());
            if (n) ctx.log.info({ pruned: n }, 'old forwards to the owner’s phone deleted');
          }),
        ],
        cron: [{ definition: pruneForwardsJob, cron: '20 4 * * *', data: {} }],
        dispose: async () => {
          const stop = await listening.catch(() => undefined);
          await stop?.();
        },
      };
    },
  });
}
