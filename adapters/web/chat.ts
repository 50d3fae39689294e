import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { greeting } from '../../engine/conversation/texts.ts';
import { LIMITS } from '../../engine/rate-limits.ts';
import type { ChannelContext, InboundMessage } from '../../engine/registry/index.ts';
import { LANG_CODES, languageCode } from '../../engine/schemas.ts';
import { recordWidgetSeen } from '../../engine/store/queries/chatbots.ts';
import { ChatMessageBody, ChatMessageReply, mentionId } from './contract.ts';
import { gateTurn } from './gate.ts';
import { personLabel } from './queries.ts';
import { availability, botByKey, cors, ErrorBody, PUBLIC_CORS, widgetSiteOrigin } from './shared.ts';
import { WIDGET_TEXTS, WidgetTextsSchema } from './texts.ts';
import { answerTurn, chatReply, runTurn } from './turn-http.ts';
import { readVoiceUpload, WebVisitor } from './voice.ts';

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
}).extend(WebVisitor.shape);

const LIMITS_TEXT =
  `429 past ${LIMITS.turnVisitor.max} messages a minute per visitor, ${LIMITS.turnAddress.max} per address or ` +
  `${LIMITS.turnBot.max} per bot (defaults; see the README’s Security section).`;

/** The path parameter of every web-key route. */
const KeyParams = z.object({ key: z.string().min(1).max(100) });

/** A turn's answers on the web-key routes (`/message`, `/voice`). */
const TURN_RESPONSES = {
  200: ChatMessageReply,
  400: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  429: ErrorBody,
} as const;

/** The options of a public web-key route: no session, CORS for any origin, tagged `web`, `:key`. */
function webKeyRoute<S extends object>(schema: S) {
  return {
    ...PUBLIC_CORS,
    schema: { tags: ['web'], params: KeyParams, ...schema },
  };
}

export function webChatRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.options('/api/web/*', { config: { public: true }, schema: { hide: true } }, async (_req, reply) => {
      cors(reply);
      return reply.code(204).send();
    });

    app.get(
      '/api/web/:key/config',
      webKeyRoute({
        summary: 'What the web widget shows for a key',
        description:
          'Issue 6, spec 001 §2: the business name, greeting and widget texts in the bot’s language, and ' +
          'whether the chat is available (the web service is on and the owner has days). CORS: any origin. ' +
          'A request from another site (its `Origin`) records that site as where the widget loaded (issue 10). ' +
          '404 "No se encontró la configuración del bot para este IALanding." for an unknown key.',
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
            person: z
              .string()
              .describe(
                'Issue 27 §3: who the visitor sees when the owner writes (the owner’s name, else "Equipo de <business>").',
              ),
          }),
          404: ErrorBody,
        },
      }),
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
          person: await personLabel(ctx().db, bot),
        };
      },
    );

    app.post(
      '/api/web/:key/message',
      webKeyRoute({
        summary: 'A visitor’s message to a bot on a website or its IALanding',
        description:
          'Issue 6: the contract of `POST /api/chatbot-message/:id` addressed by web key, for any origin ' +
          '(CORS). JSON, or Server-Sent Events with `Accept: text/event-stream` (`token`, then `done` or ' +
          '`error`). 403 with a text in the bot’s language when the web service is off or the owner has ' +
          `no days; ${LIMITS_TEXT}`,
        body: WebMessageBody,
        response: TURN_RESPONSES,
      }),
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        const body = req.body;
        await gateTurn(ctx(), req, reply, bot, {
          channel: body.channel,
          visitorId: body.visitorId,
          via: 'key',
        });
        const inbound: InboundMessage = {
          chatbotId: bot.id,
          channel: body.channel,
          follower: { id: body.visitorId },
          text: body.userMessage,
          messageId: body.messageId ?? '',
          ...(body.messageHistory ? { history: body.messageHistory } : {}),
          ...(body.archivosMostrados ? { offered: body.archivosMostrados.map(mentionId) } : {}),
          ...(body.archivosEnviados ? { sent: body.archivosEnviados.map(mentionId) } : {}),
        };
        return answerTurn(ctx(), req, reply, inbound, (r, voice) => chatReply(r, voice), {
          speak: true,
          headers: { 'access-control-allow-origin': '*' },
        });
      },
    );

    app.post(
      '/api/web/:key/voice',
      webKeyRoute({
        summary: 'A visitor’s voice message to a bot on a website or its IALanding',
        description:
          'Issue 15 §1: multipart/form-data `visitorId`, `channel` (web or ialanding), `messageId`, and the recording ' +
          '(one file, at most 10 MB: WebM/Opus from a browser, OGG, MP3, WAV). It goes through the engine as a voice ' +
          'note: with a transcription server the bot answers the words (`heard` is the transcript), otherwise it asks ' +
          'the visitor to write. `voice` carries the spoken reply when the bot speaks. Errors and limits as ' +
          '`/message`; 413 over 10 MB.',
        consumes: ['multipart/form-data'],
        response: { ...TURN_RESPONSES, 413: ErrorBody },
      }),
      async (req, reply) => {
        const bot = await botByKey(ctx(), req.params.key);
        // Gated before the recording is read: a refused visitor costs no upload.
        const { fields, audio, mime } = await readVoiceUpload(req, async (f) => {
          await gateTurn(ctx(), req, reply, bot, { channel: f.channel, visitorId: f.visitorId, via: 'key' });
        });
        const inbound: InboundMessage = {
          chatbotId: bot.id,
          channel: fields.channel,
          follower: { id: fields.visitorId },
          text: '',
          // The bytes travel with the message: a transcribing plugin reads them through turn.media().
          attachments: [{ type: 'voice', data: audio, ...(mime ? { mime } : {}) }],
          messageId: fields.messageId ?? '',
        };
        const { result, voice } = await runTurn(ctx(), inbound, { speak: true });
        return chatReply(result, voice);
      },
    );
  };
}
