/**
 * The conversations owner routes (issue 14; spec 001 §2 Followers chat screen, §7 and §8
 * conversation_messages calls), scoped to the session's owner and one of their bots:
 *
 * - `GET    /api/conversations/:chatbotId?q=&channel=&status=&tests=`: followers with a conversation,
 *   newest activity first (issue 27 §4.3, §4.5: search, filters, test chats apart);
 * - `GET    /api/conversations/:chatbotId/messages?channel=&userId=&before=`: a page of messages
 *   (opening the newest page marks them read);
 * - `POST   /api/conversations/:chatbotId/reply`: the owner's message to a follower, through the
 *   follower's channel, stored with sender `owner`; the bot stays quiet for this follower until
 *   the quiet period after the owner's last message ends (default 30 min);
 * - `POST   /api/conversations/:chatbotId/voice`: a recorded voice note with an effect to a follower;
 *   (`POST /api/conversations/:chatbotId/file`, a stored or uploaded file: file-routes.ts);
 * - `POST   /api/conversations/:chatbotId/takeover`: pause or resume the bot for one follower;
 * - `DELETE /api/conversations/:chatbotId/messages?channel=&userId=`: deletes the conversation;
 * - `GET    /api/conversations/:chatbotId/events`: Server-Sent Events `message` `{channel, userId}`
 *   each time messages of one of the bot's conversations are stored (any process), and `resync`
 *   `{}` when the server got its database connection back after losing it (issue 24 §1).
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { openSse } from '../../engine/http/sse.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { BotParams, ownedBotOf } from '../../engine/registry/owner-routes.ts';
import { PRESETS, type RecordingEffects, VOICE_SEND_ERROR } from '../audio-effects/api.ts';
import {
  ConversationQuery,
  ConversationsErrorBody,
  DEFAULT_QUIET_MINUTES,
  FollowersAnswer,
  FollowersQuery,
  MessagesAnswer,
  ReplyBody,
  TakeoverBody,
} from './api.ts';
import { memoKey, type NameMemo } from './names.ts';
import { ownerDelivery } from './owner-delivery.ts';
import { removeOwnerFiles } from './owner-files.ts';
import {
  attachmentOf,
  type ConversationsDb,
  deleteConversation,
  findState,
  listFollowers,
  listMessages,
  saveState,
} from './queries.ts';
import type { TurnStateCache } from './turn-state.ts';

const PAGE = 50;
/** A comment line every 25 s keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 25_000;

const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/**
 * The owner routes above. `turnState` is told of every pause, resume and deletion, so every
 * process's middleware sees it (turn-state.ts).
 */
export function conversationRoutes(
  ctx: PluginContext,
  db: ConversationsDb,
  turnState: TurnStateCache,
  effects: RecordingEffects,
  names: NameMemo,
): FastifyPluginAsyncZod {
  /** The owner's bot, or 404 with the spec's bot-not-found text (the registry's bot port). */
  const ownedBot = ownedBotOf(ctx);
  const probe = (method: 'GET' | 'POST' | 'DELETE', path: string, json?: Record<string, unknown>) => ({
    owner: {
      probe: (a: { botId: string }) => ({
        method,
        url: `/api/conversations/${a.botId}${path}`,
        ...(json ? { json } : {}),
      }),
    },
  });
  const who = { channel: 'telegram', userId: '1' };
  /** Open event streams of this process, by the id their `ready` event gave (for a quiet close). */
  const streams = new Map<string, { ownerId: string; end: () => void }>();

  const deliver = ownerDelivery(ctx, db, turnState);
  return async (app) => {
    app.get(
      '/api/conversations/:chatbotId',
      {
        config: probe('GET', ''),
        schema: {
          summary: 'A bot’s followers with a conversation',
          description:
            'Spec 001 §2, §8 (conversation_messages by chatbot, newest first): each follower once, with the channel, name, ' +
            'last message, unread follower messages, state and whether the owner has taken over. Issue 27 §4.3: `q` searches ' +
            'the name, id and message texts; `channel` (telegram, whatsapp, web, ialanding) and `status` filter; the owner’s ' +
            'test chats (`test`, `cli`) only with `tests=1`. At most 200.',
          tags: ['conversations'],
          params: BotParams,
          querystring: FollowersQuery,
          response: { 200: FollowersAnswer, 404: ConversationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const now = ctx.now();
        const rows = await listFollowers(db, bot.id, { ...req.query, q: req.query.q || undefined });
        return {
          followers: rows.map((r) => ({
            channel: r.channel,
            userId: r.user_id,
            name: r.name,
            handle: r.handle,
            visitorNo: r.name ? null : r.visitor_no,
            status: r.status,
            lastText: r.last_text,
            lastFrom: r.last_from,
            lastAt: r.last_at.toISOString(),
            unread: r.unread,
            pausedUntil: r.paused_until && r.paused_until > now ? r.paused_until.toISOString() : null,
          })),
        };
      },
    );

    app.get(
      '/api/conversations/:chatbotId/messages',
      {
        config: probe('GET', '/messages?channel=telegram&userId=1'),
        schema: {
          summary: 'A page of one conversation',
          description:
            'Spec 001 §8 (conversation_messages by chatbot and user, ascending): 50 messages before `before` (a message id), ' +
            'or the newest 50, oldest first, with files. Reading the newest page marks the follower’s messages read.',
          tags: ['conversations'],
          params: BotParams,
          querystring: ConversationQuery.extend({
            before: z
              .string()
              .regex(/^\d{1,20}$/)
              .optional(),
          }),
          response: { 200: MessagesAnswer, 404: ConversationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const key = { chatbotId: bot.id, channel: req.query.channel, chatId: req.query.userId };
        const [{ rows, more }, state] = await Promise.all([
          listMessages(db, key, req.query.before, PAGE),
          findState(db, key),
        ]);
        const newest = rows.at(-1);
        if (!req.query.before && newest)
          await saveState(db, key, { last_read_id: String(newest.id) }, ctx.now());
        const until = state?.paused_until ? new Date(state.paused_until) : null;
        return {
          messages: rows.map((m) => {
            const a = attachmentOf(m.meta);
            return {
              id: String(m.id),
              from: m.sender,
              text: m.text,
              at: new Date(m.created_at).toISOString(),
              attachment: a ? { url: a.url, type: a.type, name: a.name, mime: a.mime ?? null } : null,
            };
          }),
          more,
          pausedUntil: until && until > ctx.now() ? until.toISOString() : null,
          quietMinutes: state?.quiet_minutes ?? DEFAULT_QUIET_MINUTES,
          canReply: ctx.capabilities(req.query.channel)?.push === true,
          status: state?.status ?? 'open',
        };
      },
    );

    app.post(
      '/api/conversations/:chatbotId/reply',
      {
        config: probe('POST', '/reply', { ...who, text: 'hola' }),
        schema: {
          summary: 'The owner writes to a follower',
          description:
            'Issue 14: sent through the follower’s channel (Telegram, WhatsApp, the web widget, which fetches it), after the ' +
            'plugins’ outbound transformers, stored with sender `owner`. The bot then stays quiet for this follower until ' +
            'the quiet period after this message ends (the conversation’s, default 30 min). 409 `cannotReply` for a ' +
            'channel that cannot deliver it (the owner’s test chat, the IALanding); 502 `channel` when the channel refuses ' +
            '(its words, e.g. the follower blocked the bot); nothing is stored then.',
          tags: ['conversations'],
          params: BotParams,
          body: ReplyBody,
          response: {
            200: z.object({ pausedUntil: z.string() }),
            404: ConversationsErrorBody,
            409: ConversationsErrorBody,
            502: ConversationsErrorBody,
          },
        },
      },
      async (req, reply) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const { channel, userId, text } = req.body;
        return deliver(bot, channel, userId, { text }, reply, req.log);
      },
    );

    app.post<{ Params: z.infer<typeof BotParams> }>(
      '/api/conversations/:chatbotId/voice',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'POST',
              url: `/api/conversations/${a.botId}/voice`,
              upload: { channel: 'telegram', userId: '1', preset: 'robot' },
            }),
          },
        },
        schema: {
          summary: 'The owner sends a recorded voice note to a follower',
          description:
            'Issue 14 §4: multipart/form-data `channel`, `userId`, `preset` (a voice effect, default natural) and `audio` ' +
            '(the recording, at most 10 MB). The effect is applied (audio-effects plugin) and the note goes out as a voice ' +
            'note through the follower’s channel, stored with sender `owner`; the bot stays quiet as after a reply. Issue ' +
            '27 §3: to a web or IALanding visitor it is kept in the file storage and sent as an OGG audio `attachment` ' +
            '(`/files/…`), which their widget plays. 400 ' +
            '"Error al enviar el audio." for a recording that cannot be processed; otherwise the errors of the reply.',
          tags: ['conversations'],
          params: BotParams,
          consumes: ['multipart/form-data'],
        },
      },
      async (req, reply) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const { fields, recording } = await effects.readRecordingForm(req);
        const who = ReplyBody.pick({ channel: true, userId: true }).safeParse(fields);
        if (!who.success) throw new AppError('BAD_REQUEST', 'Falta el seguidor (channel, userId).');
        const preset = z.enum(PRESETS).safeParse(fields.preset || 'natural');
        if (!recording?.length || !preset.success) throw new AppError('BAD_REQUEST', VOICE_SEND_ERROR);
        const voice = await effects.apply(recording, preset.data).catch(() => {
          throw new AppError('BAD_REQUEST', VOICE_SEND_ERROR);
        });
        return deliver(
          bot,
          who.data.channel,
          who.data.userId,
          { text: '', voice: { data: voice, mime: 'audio/ogg' } },
          reply,
          req.log,
        );
      },
    );

    app.post(
      '/api/conversations/:chatbotId/takeover',
      {
        config: probe('POST', '/takeover', { ...who, paused: true }),
        schema: {
          summary: 'Pauses or resumes the bot for one follower',
          description:
            'Issue 14: `paused` true keeps the bot quiet for this follower for `quietMinutes` (default the conversation’s, ' +
            '30) from now; false lets it answer again at once. The follower’s messages are stored and shown either way.',
          tags: ['conversations'],
          params: BotParams,
          body: TakeoverBody,
          response: {
            200: z.object({ pausedUntil: z.string().nullable(), quietMinutes: z.number().int() }),
            404: ConversationsErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const key = { chatbotId: bot.id, channel: req.body.channel, chatId: req.body.userId };
        const state = await findState(db, key);
        const quiet = req.body.quietMinutes ?? state?.quiet_minutes ?? DEFAULT_QUIET_MINUTES;
        const until = req.body.paused ? new Date(ctx.now().getTime() + quiet * 60_000) : null;
        await saveState(db, key, { paused_until: until, quiet_minutes: quiet }, ctx.now());
        await turnState.changed(key);
        return { pausedUntil: iso(until), quietMinutes: quiet };
      },
    );

    app.delete(
      '/api/conversations/:chatbotId/messages',
      {
        config: probe('DELETE', '/messages?channel=telegram&userId=1'),
        schema: {
          summary: 'Deletes one conversation',
          description:
            'Spec 001 §8: deletes the conversation_messages of this bot and follower (issue 27: its state, the follower’s ' +
            'name and the files the owner sent in it too). The dashboard says "Error al eliminar ' +
            'la conversación: {message}" on failure.',
          tags: ['conversations'],
          params: BotParams,
          querystring: ConversationQuery,
          response: { 200: z.object({ deleted: z.number().int() }), 404: ConversationsErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.params.chatbotId);
        const key = { chatbotId: bot.id, channel: req.query.channel, chatId: req.query.userId };
        const deleted = await deleteConversation(db, key);
        // The owner's files sent in it (issue 27 §3) and the remembered name go with it.
        await removeOwnerFiles(ctx, db, key);
        names.forget(memoKey(key));
        await turnState.changed(key);
        return { deleted };
      },
    );

    app.get(
      '/api/conversations/:chatbotId/events',
      {
        config: probe('GET', '/events'),
        schema: {
          summary: 'Live changes of a bot’s conversations',
          description:
            'Issue 14: Server-Sent Events. `ready` `{stream}` once listening, then `message` `{channel, userId}` each time messages ' +
            'of one of the bot’s conversations are stored, in this process or another (PostgreSQL LISTEN/NOTIFY), ' +
            'within about 250 ms. After the server lost its database connection and got it back, `resync` `{}` says messages ' +
            'may have been missed: the page reloads the conversations (issue 24 §1); the stream stays open through the outage. ' +
            'The dashboard refreshes every 3 s when the stream is down (spec 001 §9).',
          tags: ['conversations'],
          params: BotParams,
        },
      },
      async (req, reply) => {
        const { bot, owner } = await ctx.bots.owned(req, req.params.chatbotId);
        const stream = randomUUID();
        const sse = openSse(reply, {}, { live: true });
        let closed = false;
        let stop: () => Promise<void>;
        try {
          stop = await ctx.onMessages(
            (e) => {
              if (e.chatbotId === bot.id) sse.send('message', { channel: e.channel, userId: e.userId });
            },
            // The LISTEN connection was lost and is back: messages may have been missed (issue 24 §1).
            { onResume: () => sse.send('resync', {}) },
          );
        } catch (err) {
          // The stream is open already (no status to send): end it, and the page opens a new one.
          req.log.warn({ err }, 'conversations stream could not listen');
          sse.end();
          return;
        }
        const heartbeat = setInterval(() => {
          if (!reply.raw.writableEnded) reply.raw.write(': keep-alive\n\n');
        }, HEARTBEAT_MS);
        const close = () => {
          if (closed) return;
          closed = true;
          streams.delete(stream);
          clearInterval(heartbeat);
          void stop();
          sse.end();
        };
        streams.set(stream, { ownerId: owner.id, end: close });
        req.raw.on('close', close);
        sse.send('ready', { stream });
      },
    );

    app.post(
      '/api/conversations/events/close',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'Ends a live conversations stream',
          description:
            'Ends the caller’s events stream whose `ready` event gave this `stream` id, if this process holds it, so the ' +
            'page sees it end normally instead of aborting it (issue 10: closed streams close quietly). 204 either way.',
          tags: ['conversations'],
          body: z.object({ stream: z.string().uuid() }),
          response: { 204: z.null() },
        },
      },
      async (req, reply) => {
        const owner = await ctx.requireOwner(req);
        const open = streams.get(req.body.stream);
        if (open?.ownerId === owner.id) open.end();
        return reply.code(204).send(null);
      },
    );
  };
}
