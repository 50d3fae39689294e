/**
 * The notifications owner routes (issue 27 §1, §2), all for the session's owner:
 *
 * - `GET /api/notifications/settings`: which events are e-mailed and in which language;
 * - `PUT /api/notifications/settings`: changes them (zod; a bad body is 400);
 * - `GET /api/notifications/:chatbotId/needs-person`: the bot's conversations where a follower
 *   asked for a person (the "needs a person" mark);
 * - `DELETE /api/notifications/:chatbotId/needs-person?channel=&userId=`: clears one mark.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { PluginContext } from '../../engine/registry/index.ts';
import { BotParams, ownedBotOf } from '../../engine/registry/owner-routes.ts';
import { LANG_CODES } from '../../engine/schemas.ts';
import { ownerChoices } from './delivery.ts';
import { clearHandoff, listHandoffs, type NotificationsDb, saveSettings } from './queries.ts';
import { EVENT_KINDS, type EventKind } from './texts.ts';

/** The settings as the routes give them: every event kind on (true) or off, and the mail language. */
export const SettingsAnswer = z.object({
  language: z.enum(LANG_CODES),
  events: z.object(
    Object.fromEntries(EVENT_KINDS.map((k) => [k, z.boolean()])) as Record<EventKind, z.ZodBoolean>,
  ),
});

/** `PUT` body: any of the kinds, and the language; what is left out stays as it was. */
export const SettingsBody = z
  .object({
    language: z.enum(LANG_CODES).optional(),
    events: z
      .object(
        Object.fromEntries(EVENT_KINDS.map((k) => [k, z.boolean().optional()])) as Record<
          EventKind,
          z.ZodOptional<z.ZodBoolean>
        >,
      )
      .strict()
      .optional(),
  })
  .strict();

const HandoffsAnswer = z.object({
  conversations: z.array(z.object({ channel: z.string(), userId: z.string(), requestedAt: z.string() })),
});
const ErrorBody = z.object({ error: z.string() });
const Conversation = z.object({ channel: z.string().min(1).max(40), userId: z.string().min(1).max(200) });

/** The routes (mounted at the root: `prefix: ''`). */
export function notificationRoutes(ctx: PluginContext, db: NotificationsDb): FastifyPluginAsyncZod {
  const ownedBot = ownedBotOf(ctx);
  const answer = async (ownerId: string) => {
    const { language, disabled } = await ownerChoices(db, ownerId);
    return {
      language,
      events: Object.fromEntries(EVENT_KINDS.map((k) => [k, !disabled.includes(k)])) as Record<
        EventKind,
        boolean
      >,
    };
  };
  return async (app) => {
    app.get(
      '/api/notifications/settings',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The owner’s notification settings',
          description:
            'Issue 27 §1: which events are e-mailed (all on until changed) and the mails’ language (the dashboard’s, es by default).',
          tags: ['notifications'],
          response: { 200: SettingsAnswer },
        },
      },
      async (req) => answer((await ctx.requireOwner(req)).id),
    );

    app.put(
      '/api/notifications/settings',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'Changes the owner’s notification settings',
          description:
            'Issue 27 §1: `events` turns kinds on or off (new_conversation, asks_person, booking_new, booking_changed); ' +
            '`language` is the mails’ language. Fields left out keep their value. 400 for an unknown field or value.',
          tags: ['notifications'],
          body: SettingsBody,
          response: { 200: SettingsAnswer },
        },
      },
      async (req) => {
        const owner = await ctx.requireOwner(req);
        const now = await ownerChoices(db, owner.id);
        const disabled = new Set(now.disabled);
        for (const [k, on] of Object.entries(req.body.events ?? {})) {
          if (on === true) disabled.delete(k as EventKind);
          if (on === false) disabled.add(k as EventKind);
        }
        await saveSettings(
          db,
          owner.id,
          { language: req.body.language ?? now.language, disabled: [...disabled] },
          ctx.now(),
        );
        return answer(owner.id);
      },
    );

    app.get(
      '/api/notifications/:chatbotId/needs-person',
      {
        config: {
          owner: { probe: (a) => ({ method: 'GET', url: `/api/notifications/${a.botId}/needs-person` }) },
        },
        schema: {
          summary: 'Conversations where a follower asked for a person',
          description: 'Issue 27 §2: newest first. 404 for a bot that is not the owner’s.',
          tags: ['notifications'],
          params: BotParams,
          response: { 200: HandoffsAnswer, 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        return { conversations: await listHandoffs(db, bot.id) };
      },
    );

    app.delete(
      '/api/notifications/:chatbotId/needs-person',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'DELETE',
              url: `/api/notifications/${a.botId}/needs-person?channel=web&userId=v1`,
            }),
          },
        },
        schema: {
          summary: 'Clears a conversation’s "needs a person" mark',
          description:
            'Issue 27 §2: the owner answered or resolved it. `cleared` is false when it was not marked.',
          tags: ['notifications'],
          params: BotParams,
          querystring: Conversation,
          response: { 200: z.object({ cleared: z.boolean() }), 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const cleared = await clearHandoff(db, {
          chatbotId: bot.id,
          channel: req.query.channel,
          userId: req.query.userId,
        });
        return { cleared };
      },
    );
  };
}
