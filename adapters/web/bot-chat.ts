/**
 * The chat routes addressed by bot id (spec 000 §7, 001 §7): a bot's config, a turn (JSON or
 * Server-Sent Events), a voice message, and a bot's file list. The owner's test chat and
 * `charla chat` use them; every turn passes the one gate of gate.ts (issue 24 §2). Moved here from
 * engine/http/routes/chat.ts (issue 25 §3): the engine names no chat channel.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ANONYMOUS_FOLLOWER } from '../../engine/conversation/engine.ts';
import { greeting } from '../../engine/conversation/texts.ts';
import { AppError, botNotFound } from '../../engine/errors.ts';
import { readSingleFileForm } from '../../engine/http/multipart.ts';
import { FileRecord, fileRecord } from '../../engine/http/views.ts';
import type { ChannelContext, InboundMessage } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import { ChatChannel, ChatMessageBody, ChatMessageReply, ErrorBody, mentionId } from './contract.ts';
import { gateTurn, requesterOf } from './gate.ts';
import { answerTurn, chatReply, runTurn } from './turn-http.ts';

/** Largest voice message taken by `/api/chatbot-voice/:id`, bytes (10 MB). */
const MAX_VOICE_UPLOAD_BYTES = 10 * 1024 * 1024;
const VoiceFields = z.object({
  visitorId: z.string().min(1).max(128).optional(),
  messageId: z.string().min(1).max(200).optional(),
  channel: ChatChannel.default('test'),
});
const IdParams = z.object({ id: z.string().min(1).max(100) });
const GATE_ERRORS = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody };

/** The bot-id chat routes. */
export function botChatRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    /** The bot of an id, when the request may see it: a public bot, or a private one to its owner. */
    const visibleBot = async (req: Parameters<typeof requesterOf>[1], id: string) => {
      const loaded = await ctx().bots.get(id);
      if (!loaded) throw botNotFound();
      if (!loaded.bot.is_public && (await requesterOf(ctx(), req, loaded.bot, true)).who === 'visitor')
        throw botNotFound();
      return loaded;
    };

    app.get(
      '/api/chatbot-config/:id',
      {
        config: { public: true },
        schema: {
          summary: 'A bot’s public configuration',
          description:
            'Spec 000 §7: id, business_name, idioma, category, enable_web_search, enable_audio, plus the greeting in the bot’s language and `offline` (no LLM configured). 404 means no configuration (also for a private bot, to anyone but its owner).',
          tags: ['chat'],
          params: IdParams,
          response: {
            200: z.object({
              id: z.string(),
              business_name: z.string(),
              idioma: z.string(),
              category: z.string(),
              chatbot_style: z.string(),
              enable_web_search: z.boolean(),
              enable_audio: z.boolean(),
              greeting: z.string(),
              offline: z
                .boolean()
                .describe(
                  'True while no LLM is configured: replies come from the offline responder (issue 10 §6).',
                ),
            }),
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const { bot } = await visibleBot(req, req.params.id);
        return {
          id: bot.id,
          business_name: bot.business_name,
          idioma: bot.idioma,
          category: bot.category,
          chatbot_style: bot.chatbot_style,
          enable_web_search: bot.enable_web_search,
          enable_audio: bot.enable_audio,
          greeting: greeting(languageCode(bot.idioma), bot.business_name),
          offline: ctx().offline,
        };
      },
    );

    app.post(
      '/api/chatbot-message/:id',
      {
        config: { public: true },
        schema: {
          summary: 'Send a follower message and get the bot’s reply',
          description:
            'Spec 000 §7. JSON by default; with `Accept: text/event-stream` the reply streams as Server-Sent Events: `token` events `{text}` as the reply is produced, then one `done` event with the JSON answer (or `error` `{error}`). `?debug=1` returns the whole `contenedorEmpatico` to the bot’s owner; otherwise only its `archivos`. A repeated `messageId` (or Idempotency-Key) from the same follower gets the stored answer. ' +
            'Gated (issue 24 §2): `channel` `test` and `cli` are for the bot’s owner (401 without a session, 404 for another owner); `web` and `ialanding` need a public bot (404 otherwise), its web service on and its owner with days (403 with the visitors’ text), and are limited per visitor, address and bot (429 with Retry-After; see the README’s Security section). ' +
            'A `userMessage` over 8000 characters gives 400; a `messageHistory` item over 8000 is cut and the turn goes on.',
          tags: ['chat'],
          params: IdParams,
          querystring: z.object({ debug: z.enum(['0', '1', 'true', 'false']).optional() }),
          body: ChatMessageBody,
          response: { 200: ChatMessageReply, 400: ErrorBody, ...GATE_ERRORS },
        },
      },
      async (req, reply) => {
        const body = req.body;
        const loaded = await ctx().bots.get(req.params.id);
        if (!loaded) throw botNotFound();
        const askedDebug = req.query.debug === '1' || req.query.debug === 'true';
        const who = await gateTurn(
          ctx(),
          req,
          reply,
          loaded.bot,
          { channel: body.channel, visitorId: body.visitorId, via: 'id', owner: loaded.owner },
          askedDebug,
        );
        const debug = askedDebug && who !== 'visitor';
        const idempotencyKey = req.headers['idempotency-key'];
        const inbound: InboundMessage = {
          chatbotId: loaded.bot.id,
          channel: body.channel,
          follower: { id: body.visitorId ?? ANONYMOUS_FOLLOWER, username: body.username ?? null },
          text: body.userMessage,
          messageId:
            body.messageId ?? (typeof idempotencyKey === 'string' ? idempotencyKey.slice(0, 200) : ''),
          ...(body.messageHistory ? { history: body.messageHistory } : {}),
          ...(body.archivosMostrados ? { offered: body.archivosMostrados.map(mentionId) } : {}),
          ...(body.archivosEnviados ? { sent: body.archivosEnviados.map(mentionId) } : {}),
        };
        // The bot-id JSON chat API carries no voice note: its reply is not spoken.
        return answerTurn(ctx(), req, reply, inbound, (r) => chatReply(r, null, debug), { speak: false });
      },
    );

    app.post(
      '/api/chatbot-voice/:id',
      {
        config: { public: true },
        schema: {
          summary: 'Send a follower’s voice message and get the bot’s reply',
          description:
            'Issue 15 §4 (the owner’s test chat; the widget uses `/api/web/:key/voice`): multipart/form-data `visitorId`, ' +
            '`messageId`, `channel` (default `test`) and the recording (one file, at most 10 MB). It goes through the engine ' +
            'as a voice note: with a transcription server the bot answers the words and `heard` is the transcript, ' +
            'otherwise the bot asks to write. `voice` carries the reply as an OGG/Opus voice note ' +
            '(`data:audio/ogg;base64,…`) when the bot speaks ("Respuestas de voz"). Gated like `/api/chatbot-message/:id`; ' +
            '404 for an unknown bot; 413 over 10 MB.',
          tags: ['chat'],
          params: IdParams,
          consumes: ['multipart/form-data'],
          response: { 200: ChatMessageReply, 400: ErrorBody, 413: ErrorBody, ...GATE_ERRORS },
        },
      },
      async (req, reply) => {
        const loaded = await ctx().bots.get(req.params.id);
        if (!loaded) throw botNotFound();
        const parse = (fields: Record<string, string>) => {
          const form = VoiceFields.safeParse(fields);
          if (!form.success) throw new AppError('BAD_REQUEST', 'Campos no válidos.');
          return form.data;
        };
        const upload = await readSingleFileForm(req, {
          maxBytes: MAX_VOICE_UPLOAD_BYTES,
          tooLarge: () => 'La grabación supera los 10 MB.',
          notMultipart: 'Envía el audio como multipart/form-data.',
          // Gated before the recording is read: a refused caller costs no upload.
          beforeFile: async (fields) => {
            const f = parse(fields);
            await gateTurn(ctx(), req, reply, loaded.bot, {
              channel: f.channel,
              visitorId: f.visitorId,
              via: 'id',
              owner: loaded.owner,
            });
          },
        });
        const form = { data: parse(upload.fields) };
        const data = upload.file?.data;
        if (!data?.length) throw new AppError('BAD_REQUEST', 'Falta el audio.');
        const mime = upload.file?.mime ?? null;
        const inbound: InboundMessage = {
          chatbotId: loaded.bot.id,
          channel: form.data.channel,
          follower: { id: form.data.visitorId ?? ANONYMOUS_FOLLOWER },
          text: '',
          attachments: [{ type: 'voice', data, ...(mime ? { mime } : {}) }],
          messageId: form.data.messageId ?? '',
        };
        const { result, voice } = await runTurn(ctx(), inbound, { speak: true });
        return chatReply(result, voice);
      },
    );

    app.get(
      '/api/chatbot-files',
      {
        config: { public: true },
        schema: {
          summary: 'A bot’s files',
          description:
            'Spec 000 §7: the files of a bot, newest first, with keyword and file_type, and their public address. Public for a public bot (is_public); a private bot’s list needs its owner’s session, and answers 404 to anyone else.',
          tags: ['chat'],
          querystring: z.object({ chatbotId: z.string().min(1).max(100) }),
          response: { 200: z.array(FileRecord), 404: ErrorBody },
        },
      },
      async (req) => {
        const { files } = await visibleBot(req, req.query.chatbotId);
        return files.map((f) => fileRecord(f, ctx().publicUrl));
      },
    );
  };
}
