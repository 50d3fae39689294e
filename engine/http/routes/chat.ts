/**
 * The public chat routes every chat client calls (spec 000 §7, 001 §7): a bot's config, a turn
 * (JSON or Server-Sent Events), and a bot's file list.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ANONYMOUS_FOLLOWER, turnBotOf } from '../../conversation/engine.ts';
import { greeting } from '../../conversation/texts.ts';
import { AppError, botNotFound } from '../../errors.ts';
import {
  ArchivosBlock,
  Attachment,
  ContenedorEmpatico,
  HistoryItemInput,
  languageCode,
  MAX_MESSAGE_CHARS,
} from '../../schemas.ts';
import { requireOwner } from '../auth.ts';
import { readSingleFileForm } from '../multipart.ts';
import type { HttpDeps } from '../server.ts';
import { openSse } from '../sse.ts';
import { FileRecord, fileRecord } from '../views.ts';

/** A file reference as clients send it back: an id, a file name, or an offered-list item. */
export const FileMention = z.union([z.string().max(300), z.object({ id: z.string().max(300) }).loose()]);
/** The id (or name) a {@link FileMention} refers to. */
export const mentionId = (m: z.infer<typeof FileMention>) => (typeof m === 'string' ? m : m.id);

/**
 * Body of `POST /api/chatbot-message/:id` (spec 000 §7, plus optional follower identity and
 * idempotency). Limits: `userMessage` at most MAX_MESSAGE_CHARS (8000) characters, else 400; each
 * `messageHistory` item is trimmed to MAX_MESSAGE_CHARS rather than refused (HistoryItemInput).
 */
export const ChatMessageBody = z.object({
  userMessage: z
    .string()
    .max(MAX_MESSAGE_CHARS)
    .describe(
      `The follower’s message; empty after trimming or over ${MAX_MESSAGE_CHARS} characters gives 400.`,
    ),
  messageHistory: z
    .array(HistoryItemInput)
    .max(100)
    .optional()
    .describe(
      `Earlier messages, oldest first, as role/content (at most 100). An item longer than ${MAX_MESSAGE_CHARS} characters is cut to its first ${MAX_MESSAGE_CHARS} instead of refusing the turn.`,
    ),
  archivosMostrados: z
    .array(FileMention)
    .max(50)
    .optional()
    .describe('Files offered by the last LIST (ids or list items).'),
  archivosEnviados: z
    .array(FileMention)
    .max(50)
    .optional()
    .describe('Files already sent in this conversation (ids or names).'),
  visitorId: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('A stable id of the follower (the widget keeps one per browser); anonymous when absent.'),
  username: z.string().max(128).optional(),
  messageId: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe('Idempotency key of this message; also read from Idempotency-Key.'),
  channel: z
    .enum(['web', 'test', 'ialanding', 'cli'])
    .default('web')
    .describe('Which web client sends the message.'),
});

/** Answer of `POST /api/chatbot-message/:id`. */
export const ChatMessageReply = z.object({
  reply: z.string(),
  attachment: Attachment.nullable(),
  archivosEnviados: z.array(z.string()),
  contenedorEmpatico: z.union([ContenedorEmpatico, z.object({ archivos: ArchivosBlock })]),
  offline: z.boolean(),
  duplicate: z.boolean(),
  /** True when the bot stayed quiet (the owner took over this chat): `reply` is empty; show nothing. */
  silent: z.boolean(),
});

const ErrorBody = z.object({ error: z.string() });
/** Largest voice message taken by `/api/chatbot-voice/:id`, bytes (10 MB). */
const MAX_VOICE_UPLOAD_BYTES = 10 * 1024 * 1024;
const VoiceFields = z.object({
  visitorId: z.string().min(1).max(128).optional(),
  messageId: z.string().min(1).max(200).optional(),
  channel: z.enum(['web', 'test', 'ialanding', 'cli']).default('test'),
});
const IdParams = z.object({ id: z.string().min(1).max(100) });

export const chatRoutes: FastifyPluginAsyncZod<HttpDeps> = async (app, deps) => {
  app.get(
    '/api/chatbot-config/:id',
    {
      config: { public: true },
      schema: {
        summary: 'A bot’s public configuration',
        description:
          'Spec 000 §7: id, business_name, idioma, category, enable_web_search, enable_audio, plus the greeting in the bot’s language and `offline` (no LLM configured). 404 means no configuration.',
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
      const loaded = await deps.engine.cache.get(req.params.id);
      if (!loaded) throw botNotFound();
      const { bot } = loaded;
      return {
        id: bot.id,
        business_name: bot.business_name,
        idioma: bot.idioma,
        category: bot.category,
        chatbot_style: bot.chatbot_style,
        enable_web_search: bot.enable_web_search,
        enable_audio: bot.enable_audio,
        greeting: greeting(languageCode(bot.idioma), bot.business_name),
        offline: deps.engine.offline,
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
          'Spec 000 §7. JSON by default; with `Accept: text/event-stream` the reply streams as Server-Sent Events: `token` events `{text}` as the reply is produced, then one `done` event with the JSON answer (or `error` `{error}`). `?debug=1` returns the whole `contenedorEmpatico`; otherwise only its `archivos`. A repeated `messageId` (or Idempotency-Key) gets the stored answer. ' +
          `Limits: a \`userMessage\` over ${MAX_MESSAGE_CHARS} characters gives 400; a \`messageHistory\` item over ${MAX_MESSAGE_CHARS} is cut to its first ${MAX_MESSAGE_CHARS} and the turn goes on (history is context; refusing it failed every later turn of a client that resends it, issue 10).`,
        tags: ['chat'],
        params: IdParams,
        querystring: z.object({ debug: z.enum(['0', '1', 'true', 'false']).optional() }),
        body: ChatMessageBody,
        response: { 200: ChatMessageReply, 400: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const body = req.body;
      const debug = req.query.debug === '1' || req.query.debug === 'true';
      const idempotencyKey = req.headers['idempotency-key'];
      const inbound = {
        chatbotId: req.params.id,
        channel: body.channel,
        follower: { id: body.visitorId ?? ANONYMOUS_FOLLOWER, username: body.username ?? null },
        text: body.userMessage,
        messageId: body.messageId ?? (typeof idempotencyKey === 'string' ? idempotencyKey : ''),
        ...(body.messageHistory ? { history: body.messageHistory } : {}),
        ...(body.archivosMostrados ? { offered: body.archivosMostrados.map(mentionId) } : {}),
        ...(body.archivosEnviados ? { sent: body.archivosEnviados.map(mentionId) } : {}),
      };
      const shape = (r: Awaited<ReturnType<typeof deps.engine.handleTurn>>) => ({
        reply: r.reply,
        attachment: r.attachment,
        archivosEnviados: r.archivosEnviados,
        contenedorEmpatico: debug ? r.contenedorEmpatico : { archivos: r.contenedorEmpatico.archivos },
        offline: r.offline,
        duplicate: r.duplicate,
        silent: r.silent,
      });

      if (!(req.headers.accept ?? '').includes('text/event-stream')) {
        return shape(await deps.engine.handleTurn(inbound));
      }
      // Validate what would fail before opening the stream, so errors keep their status code.
      if (!body.userMessage.trim()) throw new AppError('BAD_REQUEST', 'El mensaje está vacío.');
      if (!(await deps.engine.cache.get(req.params.id))) throw botNotFound();
      const abort = new AbortController();
      // The response's close, not the request's (Node 20 emits that once the body is read): the
      // client left before the answer ended, so the LLM call stops.
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) abort.abort();
      });
      const sse = openSse(reply);
      try {
        const result = await deps.engine.handleTurn(inbound, {
          onToken: (text) => sse.send('token', { text }),
          signal: abort.signal,
        });
        sse.send('done', shape(result));
      } catch (err) {
        const message =
          err instanceof AppError
            ? err.message
            : 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.';
        if (!(err instanceof AppError)) req.log.error({ err }, 'streamed turn failed');
        sse.send('error', { error: message });
      } finally {
        sse.end();
      }
      return reply;
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
          '(`data:audio/ogg;base64,…`) when the bot speaks ("Respuestas de voz"). 404 for an unknown bot; 413 over 10 MB.',
        tags: ['chat'],
        params: IdParams,
        consumes: ['multipart/form-data'],
      },
    },
    async (req) => {
      const loaded = await deps.engine.cache.get(req.params.id);
      if (!loaded) throw botNotFound();
      const upload = await readSingleFileForm(req, {
        maxBytes: MAX_VOICE_UPLOAD_BYTES,
        tooLarge: () => 'La grabación supera los 10 MB.',
        notMultipart: 'Envía el audio como multipart/form-data.',
      });
      const data = upload.file?.data;
      const mime = upload.file?.mime ?? null;
      const fields = upload.fields;
      const form = VoiceFields.safeParse(fields);
      if (!form.success) throw new AppError('BAD_REQUEST', 'Campos no válidos.');
      if (!data?.length) throw new AppError('BAD_REQUEST', 'Falta el audio.');
      const inbound = {
        chatbotId: req.params.id,
        channel: form.data.channel,
        follower: { id: form.data.visitorId ?? ANONYMOUS_FOLLOWER },
        text: '',
        attachments: [{ type: 'voice', data, ...(mime ? { mime } : {}) }],
        messageId: form.data.messageId ?? '',
      };
      const r = await deps.engine.handleTurn(inbound);
      let voice: string | null = null;
      if (!r.silent && r.reply) {
        // The plugins' outbound transformers, as for a channel that carries voice notes.
        const out = await deps.registry
          .transformOutbound(
            { text: r.reply, attachment: r.attachment },
            {
              bot: turnBotOf(loaded.bot),
              channel: inbound.channel,
              chatId: inbound.follower.id,
              capabilities: {
                maxTextLength: 20_000,
                voiceNotes: true,
                choices: true,
                streaming: false,
                push: false,
              },
              inbound,
            },
          )
          .catch(() => null);
        if (out?.voice) voice = `data:audio/ogg;base64,${out.voice.data.toString('base64')}`;
      }
      return {
        reply: r.reply,
        heard: r.heard,
        voice,
        attachment: r.attachment,
        archivosEnviados: r.archivosEnviados,
        contenedorEmpatico: { archivos: r.contenedorEmpatico.archivos },
        offline: r.offline,
        duplicate: r.duplicate,
        silent: r.silent,
      };
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
        response: {
          200: z.array(FileRecord),
          404: ErrorBody,
        },
      },
    },
    async (req) => {
      const loaded = await deps.engine.cache.get(req.query.chatbotId);
      if (!loaded) throw botNotFound();
      if (!loaded.bot.is_public) {
        const owner = await requireOwner(req, deps).catch(() => null);
        if (owner?.id !== loaded.bot.user_id) throw botNotFound();
      }
      return loaded.files.map((f) => fileRecord(f, deps.baseUrl()));
    },
  );
};
