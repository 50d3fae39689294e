/**
 * The public web chat (issue 6), for any website (CORS `*`), addressed by the bot's web key:
 * `GET /api/web/:key/config` (what the widget shows, in the bot's language, and whether the chat is
 * available), `POST /api/web/:key/message` (one turn, the contract of
 * `POST /api/chatbot-message/:id`, JSON or SSE) and `POST /api/web/:key/voice` (a recorded voice
 * message, voice.ts), rate-limited per visitor, per address and per key.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { greeting } from '../../engine/conversation/texts.ts';
import { AppError } from '../../engine/errors.ts';
import { ChatMessageBody, ChatMessageReply, mentionId } from '../../engine/http/routes/chat.ts';
import { openSse } from '../../engine/http/sse.ts';
import type { ChannelContext, TurnResult } from '../../engine/registry/index.ts';
import { ArchivosBlock, LANG_CODES, languageCode } from '../../engine/schemas.ts';
import { recordWidgetSeen } from '../../engine/store/queries/chatbots.ts';
import { availability, botByKey, cors, ErrorBody, widgetSiteOrigin } from './shared.ts';
import { WEB_ERRORS, WIDGET_TEXTS, WidgetTextsSchema } from './texts.ts';
import { readVoiceUpload, spokenReply } from './voice.ts';

/** Rate limits of the public chat (per minute): a key's whole site, one visitor, one network address. */
export const WEB_RATE_LIMITS = { perKey: 600, perVisitor: 20, perAddress: 60 } as const;

/**
 * Body of `POST /api/web/:key/message`: the chat contract of `POST /api/chatbot-message/:id`
 * (spec 001 §7) with a required visitor id and the web clients' channels.
 */
export const WebMessageBody = ChatMessageBody.pick({
  userMessage: true,
  messageId: true,
  messageHistory: true,
  archivosMostrados: true,
  archivosEnviados: true,
}).extend({
  visitorId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/),
  /** Which web client sends it: the widget or the IALanding. */
  channel: z.enum(['web', 'ialanding']).default('web'),
});

/**
 * The answer: the chat route's, with only the `archivos` block of the empathy container, what the
 * bot heard (a voice message's transcript) and the reply's voice note when the bot speaks.
 */
const WebReply = ChatMessageReply.extend({
  contenedorEmpatico: z.object({ archivos: ArchivosBlock }),
  heard: z
    .string()
    .describe('The visitor’s message as the bot understood it (a voice message’s transcript).'),
  voice: z
    .string()
    .nullable()
    .describe(
      'Issue 15: the reply as an OGG/Opus voice note, `data:audio/ogg;base64,…`, when the bot speaks.',
    ),
});

export function webChatRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.options('/api/web/*', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
      cors(reply);
      return reply.code(204).send();
    });

    app.get(
      '/api/web/:key/config',
      {
        config: { public: true },
        onRequest: async (_req, reply) => cors(reply),
        schema: {
          summary: 'What the web widget shows for a key',
          description:
            'Issue 6, spec 001 §2: the business name, greeting and widget texts in the bot’s language, and ' +
            'whether the chat is available (the web service is on and the owner has days). CORS: any origin. ' +
            'A request from another site (its `Origin`) records that site as where the widget loaded (issue 10). ' +
            '404 "No se encontró la configuración del bot para este IALanding." for an unknown key.',
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          response: {
            200: z.object({
              chatbotId: z.string(),
              business_name: z.string(),
              idioma: z.string(),
              lang: z.enum(LANG_CODES),
              greeting: z.string(),
              available: z.boolean(),
              unavailableText: z.string().nullable(),
              offline: z
                .boolean()
                .describe(
                  'True while no LLM is configured: replies come from the offline responder (issue 10 §6).',
                ),
              texts: WidgetTextsSchema,
            }),
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await botByKey(ctx(), req.params.key);
        // The widget loaded on the owner's site: /main's first steps tick "put the widget on your site".
        const site = widgetSiteOrigin(req);
        if (site)
          await recordWidgetSeen(ctx().db, bot.id, site, new Date()).catch((err: unknown) =>
            ctx().log.warn({ err }, 'could not record where the widget loaded'),
          );
        const lang = languageCode(bot.idioma);
        return {
          chatbotId: bot.id,
          business_name: bot.business_name,
          idioma: bot.idioma,
          lang,
          greeting: greeting(lang, bot.business_name),
          ...(await availability(ctx(), bot)),
          offline: ctx().offline,
          texts: WIDGET_TEXTS[lang],
        };
      },
    );

    // Two limits on one request: @fastify/rate-limit runs one `rateLimit` handler per request, so
    // both counters come from `createRateLimit` and one preHandler answers 429 when either is over.
    const perKey = app.createRateLimit({
      max: WEB_RATE_LIMITS.perKey,
      timeWindow: 60_000,
      keyGenerator: (req) => `key:${(req.params as { key: string }).key}`,
    });
    const perVisitor = app.createRateLimit({
      max: WEB_RATE_LIMITS.perVisitor,
      timeWindow: 60_000,
      keyGenerator: (req) =>
        `visitor:${(req.params as { key: string }).key}:${(req.body as { visitorId?: string } | undefined)?.visitorId ?? req.ip}`,
    });
    // The visitor id comes from the client: one address gets a few visitors' worth, so a new id per
    // message does not escape the limit (an office behind one address still fits).
    const perAddress = app.createRateLimit({
      max: WEB_RATE_LIMITS.perAddress,
      timeWindow: 60_000,
      keyGenerator: (req) => `address:${(req.params as { key: string }).key}:${req.ip}`,
    });
    const limit = async (req: FastifyRequest, reply: FastifyReply) => {
      for (const check of [perVisitor, perAddress, perKey]) {
        const result = await check(req);
        if (!result.isAllowed && result.isExceeded) {
          reply.header('retry-after', String(result.ttlInSeconds));
          throw new AppError('RATE_LIMITED', WEB_ERRORS.tooMany);
        }
      }
    };

    app.post(
      '/api/web/:key/message',
      {
        config: { public: true },
        onRequest: async (_req, reply) => cors(reply),
        preHandler: limit,
        schema: {
          summary: 'A visitor’s message to a bot on a website or its IALanding',
          description:
            'Issue 6: the contract of `POST /api/chatbot-message/:id` addressed by web key, for any origin ' +
            '(CORS). JSON, or Server-Sent Events with `Accept: text/event-stream` (`token`, then `done` or ' +
            '`error`). 403 with a text in the bot’s language when the web service is off or the owner has ' +
            `no days; 429 past ${WEB_RATE_LIMITS.perVisitor} messages a minute per visitor or ` +
            `${WEB_RATE_LIMITS.perAddress} per address or ${WEB_RATE_LIMITS.perKey} per key.`,
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          body: WebMessageBody,
          response: { 200: WebReply, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        const { available, unavailableText } = await availability(ctx(), bot);
        if (!available) return reply.code(403).send({ error: unavailableText! });
        const body = req.body;
        if (!body.userMessage.trim()) throw new AppError('BAD_REQUEST', 'El mensaje está vacío.');
        const inbound = {
          chatbotId: bot.id,
          channel: body.channel,
          follower: { id: body.visitorId },
          text: body.userMessage,
          messageId: body.messageId ?? '',
          ...(body.messageHistory ? { history: body.messageHistory } : {}),
          ...(body.archivosMostrados ? { offered: body.archivosMostrados.map(mentionId) } : {}),
          ...(body.archivosEnviados ? { sent: body.archivosEnviados.map(mentionId) } : {}),
        };
        const shape = async (r: TurnResult) => shapeReply(r, await spokenReply(ctx(), r, inbound));
        if (!(req.headers.accept ?? '').includes('text/event-stream'))
          return shape(await ctx().dispatch(inbound));
        const abort = new AbortController();
        // The response's close, not the request's (Node 20 emits that once the body is read): the
        // visitor left before the answer ended, so the LLM call stops.
        reply.raw.on('close', () => {
          if (!reply.raw.writableFinished) abort.abort();
        });
        const sse = openSse(reply, { 'access-control-allow-origin': '*' });
        try {
          const result = await ctx().dispatch(inbound, {
            onToken: (text) => sse.send('token', { text }),
            signal: abort.signal,
          });
          sse.send('done', await shape(result));
        } catch (err) {
          if (!(err instanceof AppError)) req.log.error({ err }, 'streamed web turn failed');
          sse.send('error', {
            error:
              err instanceof AppError
                ? err.message
                : 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.',
          });
        } finally {
          sse.end();
        }
        return reply;
      },
    );

    app.post(
      '/api/web/:key/voice',
      {
        config: { public: true },
        onRequest: async (_req, reply) => cors(reply),
        preHandler: limit,
        schema: {
          summary: 'A visitor’s voice message to a bot on a website or its IALanding',
          description:
            'Issue 15 §1: multipart/form-data `visitorId`, `channel` (web or ialanding), `messageId`, and the recording ' +
            '(one file, at most 10 MB: WebM/Opus from a browser, OGG, MP3, WAV). It goes through the engine as a voice ' +
            'note: with a transcription server the bot answers the words (`heard` is the transcript), otherwise it asks ' +
            'the visitor to write. `voice` carries the spoken reply when the bot speaks. Errors and limits as ' +
            '`/message`; 413 over 10 MB.',
          tags: ['web'],
          params: z.object({ key: z.string().min(1).max(100) }),
          consumes: ['multipart/form-data'],
          response: {
            200: WebReply,
            400: ErrorBody,
            403: ErrorBody,
            404: ErrorBody,
            413: ErrorBody,
            429: ErrorBody,
          },
        },
      },
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        const { available, unavailableText } = await availability(ctx(), bot);
        if (!available) return reply.code(403).send({ error: unavailableText! });
        const { fields, audio, mime } = await readVoiceUpload(req);
        const inbound = {
          chatbotId: bot.id,
          channel: fields.channel,
          follower: { id: fields.visitorId },
          text: '',
          // The bytes travel with the message: a transcribing plugin reads them through turn.media().
          attachments: [{ type: 'voice', data: audio, ...(mime ? { mime } : {}) }],
          messageId: fields.messageId ?? '',
        };
        const result = await ctx().dispatch(inbound);
        return shapeReply(result, await spokenReply(ctx(), result, inbound));
      },
    );
  };
}

/** A turn's answer as the web clients read it. */
function shapeReply(r: TurnResult, voice: string | null): z.infer<typeof WebReply> {
  return {
    reply: r.reply,
    heard: r.heard,
    attachment: r.attachment,
    archivosEnviados: r.archivosEnviados,
    contenedorEmpatico: { archivos: r.contenedorEmpatico.archivos },
    offline: r.offline,
    duplicate: r.duplicate,
    silent: r.silent,
    voice,
  };
}
