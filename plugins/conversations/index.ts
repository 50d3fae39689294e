/**
 * Followers' conversations (issue 14, first part; spec 001 §2 Followers chat screen): the owner
 * reads every chat live on /usuarios-conversaciones, writes to a follower through their channel,
 * and takes over: while a conversation is paused the bot stays silent for that follower (their
 * messages are still stored and shown) until the quiet period after the owner's last message ends.
 * Through the registry only: a middleware (the silence), owner routes, its own table, and
 * `ctx.onMessages` for the live screen.
 */
import { z } from 'zod';
import { definePlugin, type FeaturePlugin } from '../../engine/registry/index.ts';
import { migrations } from './migrations.ts';
import { conversationsDb, findState } from './queries.ts';
import { conversationRoutes } from './routes.ts';

/** Builds the conversations plugin. */
export function createConversationsPlugin(): FeaturePlugin<never> {
  return definePlugin({
    id: 'conversations',
    optionsSchema: z.object({}),
    dependencies: ['audio-effects'],
    migrations,
    setup(ctx) {
      const db = conversationsDb(ctx.db);
      return {
        middleware: [
          async (turn) => {
            const state = await findState(db, {
              chatbotId: turn.bot.id,
              channel: turn.inbound.channel,
              chatId: turn.inbound.follower.id,
            });
            if (state?.paused_until && new Date(state.paused_until) > turn.now)
              return { silent: true, reason: 'the owner took over this conversation' };
            return undefined;
          },
        ],
        routes: { prefix: '', plugin: conversationRoutes(ctx, db) },
      };
    },
  }) as FeaturePlugin<never>;
}

/** The registered conversations plugin (plugins/index.ts). */
export const conversations = createConversationsPlugin();
