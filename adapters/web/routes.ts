/**
 * The web channel's HTTP routes (issue 6; spec 001 §2, §4, §7, §8).
 *
 * Public, for any website (CORS `*`), addressed by the bot's web key (`charla_key`):
 * - `GET /api/web/:key/config`: what the widget shows (business name, greeting and texts in the
 *   bot's language) and whether the chat is available (web service on and the owner has days).
 * - `POST /api/web/:key/message`: one turn, the contract of `POST /api/chatbot-message/:id` (JSON or
 *   SSE). Rate-limited per key and per visitor.
 * - `GET /api/ialanding/:slug`: the public IALanding: business, greeting, availability and files.
 * - `GET /widget.js`, `GET /widget/*`: the embeddable widget's files (built into dist/widget).
 * - `GET /ialanding/:slug` (a page): the dashboard's HTML with the landing's title, description and
 *   Open Graph tags, so a shared link previews well.
 * Owner routes (session): `GET /api/charla-web` (the web channel load rules), `POST
 * /api/charla-web/toggle`, `POST /api/charla-web/key`, `POST /api/charla-web/ialanding`.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysRemaining, isPaid } from '../../engine/auth/profiles.ts';
import { greeting } from '../../engine/conversation/texts.ts';
import { AppError, botNotFound } from '../../engine/errors.ts';
import { openSse } from '../../engine/http/sse.ts';
import { FileRecord, fileRecord } from '../../engine/http/views.ts';
import type { ChannelContext, TurnResult } from '../../engine/registry/index.ts';
import {
  ArchivosBlock,
  Attachment,
  HistoryItem,
  LANG_CODES,
  languageCode,
  MAX_MESSAGE_CHARS,
} from '../../engine/schemas.ts';
import { newCharlaKey } from '../../engine/secrets.ts';
import type { Chatbot } from '../../engine/store/database.ts';
import {
  findChatbot,
  findChatbotByKey,
  findNewestChatbot,
  findOwnedChatbot,
  insertChatbot,
  updateWebFields,
} from '../../engine/store/queries/chatbots.ts';
import { listFiles } from '../../engine/store/queries/files.ts';
import {
  ensureIalanding,
  findActiveIalandingByKey,
  findActiveIalandingBySlug,
  findIalandingByChatbot,
  freeIalandingSlug,
  updateIalanding,
} from '../../engine/store/queries/ialandings.ts';
import { findProfile } from '../../engine/store/queries/owners.ts';
import { UNAVAILABLE_TEXTS, WEB_ERRORS, WIDGET_TEXTS } from './texts.ts';

const ErrorBody = z.object({ error: z.string() });

/** Rate limits of the public chat (per minute): a key's whole site, one visitor, one network address. */
export const WEB_RATE_LIMITS = { perKey: 600, perVisitor: 20, perAddress: 60 } as const;

/** Body of `POST /api/web/:key/message`: the chat contract of spec 001 §7 with a visitor id. */
export const WebMessageBody = z.object({
  userMessage: z.string().max(MAX_MESSAGE_CHARS),
  visitorId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\w-]+$/),
  messageId: z.string().min(1).max(200).optional(),
  messageHistory: z.array(HistoryItem).max(100).optional(),
  archivosMostrados: z
    .array(z.union([z.string().max(300), z.object({ id: z.string().max(300) }).loose()]))
    .max(50)
    .optional(),
  archivosEnviados: z
    .array(z.union([z.string().max(300), z.object({ id: z.string().max(300) }).loose()]))
    .max(50)
    .optional(),
  /** Which web client sends it: the widget or the IALanding. */
  channel: z.enum(['web', 'ialanding']).default('web'),
});

const WebReply = z.object({
  reply: z.string(),
  attachment: Attachment.nullable(),
  archivosEnviados: z.array(z.string()),
  contenedorEmpatico: z.object({ archivos: ArchivosBlock }),
  offline: z.boolean(),
  duplicate: z.boolean(),
});

const WidgetTextsSchema = z.object({
  title: z.string(),
  typing: z.string(),
  placeholder: z.string(),
  send: z.string(),
  open: z.string(),
  close: z.string(),
  error: z.string(),
  openFile: z.string(),
});

/** Sets the CORS headers of the public web routes: any site may call them, without credentials. */
function cors(reply: FastifyReply): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-allow-methods', 'GET, POST, OPTIONS');
  reply.header('access-control-allow-headers', 'content-type, accept, idempotency-key');
  reply.header('access-control-max-age', '86400');
}

const mentionId = (m: string | { id: string }) => (typeof m === 'string' ? m : m.id);

/** Content types of the widget's files. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

/** Escapes text for an HTML attribute or element. */
function html(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function webRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(fastifyRateLimit, { global: false });

    /** Availability of a bot's web chat: the service switch and the owner's days (spec 001 §4). */
    const availability = async (bot: Chatbot) => {
      const available = bot.web_enabled && (await ctx().mayRun(bot.id));
      const lang = languageCode(bot.idioma);
      return {
        available,
        unavailableText: available ? null : UNAVAILABLE_TEXTS[lang].replace('{business}', bot.business_name),
      };
    };
    const botByKey = async (key: string) => {
      const bot = await findChatbotByKey(ctx().db, key);
      if (!bot) throw new AppError('NOT_FOUND', WEB_ERRORS.keyNotFound);
      return bot;
    };

    // --- public, any origin -------------------------------------------------------------------

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
              texts: WidgetTextsSchema,
            }),
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await botByKey(req.params.key);
        const lang = languageCode(bot.idioma);
        return {
          chatbotId: bot.id,
          business_name: bot.business_name,
          idioma: bot.idioma,
          lang,
          greeting: greeting(lang, bot.business_name),
          ...(await availability(bot)),
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
        const bot = await botByKey(req.params.key);
        const { available, unavailableText } = await availability(bot);
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
        const shape = (r: TurnResult) => ({
          reply: r.reply,
          attachment: r.attachment,
          archivosEnviados: r.archivosEnviados,
          contenedorEmpatico: { archivos: r.contenedorEmpatico.archivos },
          offline: r.offline,
          duplicate: r.duplicate,
        });
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
          sse.send('done', shape(result));
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

    app.get(
      '/api/ialanding/:slug',
      {
        config: { public: true },
        onRequest: async (_req, reply) => cors(reply),
        schema: {
          summary: 'A public IALanding',
          description:
            'Spec 001 §4: an active IALanding by slug, with its bot’s key, greeting (bot language), ' +
            'availability and files. 404 "IALanding no encontrada" when missing or inactive; 404 "No se ' +
            'encontró la configuración del bot para este IALanding." when its bot is gone. An empty ' +
            'business name is repaired from the bot’s.',
          tags: ['web'],
          params: z.object({ slug: z.string().min(1).max(300) }),
          response: {
            200: z.object({
              slug: z.string(),
              business_name: z.string(),
              business_description: z.string(),
              charla_key: z.string(),
              idioma: z.string(),
              lang: z.enum(LANG_CODES),
              greeting: z.string(),
              available: z.boolean(),
              unavailableText: z.string().nullable(),
              files: z.array(FileRecord),
            }),
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const { landing, bot } = await landingBySlug(req.params.slug);
        const lang = languageCode(bot.idioma);
        const files = await listFiles(ctx().db, bot.id);
        return {
          slug: landing.slug,
          business_name: landing.business_name || bot.business_name,
          business_description: bot.business_description,
          charla_key: bot.charla_key!,
          idioma: bot.idioma,
          lang,
          greeting: greeting(lang, bot.business_name),
          ...(await availability(bot)),
          files: files.map((f) => fileRecord(f, ctx().publicUrl)),
        };
      },
    );

    /** An active landing and its bot, repairing an empty business name (spec 001 §4). */
    async function landingBySlug(slug: string) {
      const { db } = ctx();
      const landing = await findActiveIalandingBySlug(db, slug);
      if (!landing) throw new AppError('NOT_FOUND', WEB_ERRORS.landingNotFound);
      const bot =
        (landing.charla_key ? await findChatbotByKey(db, landing.charla_key) : undefined) ??
        (await findChatbot(db, landing.chatbot_id));
      if (!bot?.charla_key) throw new AppError('NOT_FOUND', WEB_ERRORS.keyNotFound);
      if (!landing.business_name)
        await updateIalanding(db, landing.id, {
          slug: landing.slug,
          business_name: bot.business_name,
          charla_key: landing.charla_key,
        });
      return { landing, bot };
    }

    // The landing page itself: the dashboard's HTML with the landing's own title and previews.
    app.get<{ Params: { slug: string } }>(
      '/ialanding/:slug',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const index = join(ctx().distDir, 'dashboard', 'index.html');
        if (!existsSync(index)) return reply.code(404).send({ error: 'dashboard not built' });
        let page = await readFile(index, 'utf8');
        try {
          const { landing, bot } = await landingBySlug(req.params.slug);
          const name = landing.business_name || bot.business_name;
          const description = (bot.business_description || greeting(languageCode(bot.idioma), name))
            .replace(/\s+/g, ' ')
            .trim();
          // Previews show about 200 characters: cut at a word, with an ellipsis.
          const short =
            description.length > 200
              ? `${description
                  .slice(0, 200)
                  .replace(/\s+\S*$/, '')
                  .replace(/[\s,.;:]+$/, '')}…`
              : description;
          const url = `${ctx().publicUrl ?? `${req.protocol}://${req.host}`}/ialanding/${landing.slug}`;
          const image = (await listFiles(ctx().db, bot.id)).find((f) => f.file_type === 'image');
          const tags = [
            `<title>${html(name)} · Asistente IA</title>`,
            `<meta name="description" content="${html(short)}">`,
            `<meta property="og:type" content="website">`,
            `<meta property="og:title" content="${html(name)}">`,
            `<meta property="og:description" content="${html(short)}">`,
            `<meta property="og:url" content="${html(url)}">`,
            ...(image
              ? [
                  `<meta property="og:image" content="${html(fileRecord(image, ctx().publicUrl ?? `${req.protocol}://${req.host}`).publicUrl)}">`,
                ]
              : []),
            `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`,
          ].join('\n    ');
          page = page.replace(/<title>[^<]*<\/title>/, () => tags);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          // Unknown or inactive: the page renders its own error state; no previews.
        }
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
      },
    );

    // The widget's files, for any site.
    const widgetFile = async (name: string, reply: FastifyReply) => {
      const root = join(ctx().distDir, 'widget');
      const path = normalize(join(root, name));
      if (!path.startsWith(root) || !existsSync(path)) return reply.code(404).send({ error: 'not found' });
      cors(reply);
      return reply
        .header(
          'cache-control',
          name === 'widget.js' ? 'public, max-age=300' : 'public, max-age=31536000, immutable',
        )
        .header('x-content-type-options', 'nosniff')
        .type(TYPES[extname(path)] ?? 'application/octet-stream')
        .send(await readFile(path));
    };
    app.get('/widget.js', { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
      widgetFile('widget.js', reply),
    );
    app.get<{ Params: { '*': string } }>(
      '/widget/*',
      { config: { public: true }, schema: { hide: true } },
      (req, reply) => widgetFile(req.params['*'], reply),
    );

    // --- owner -------------------------------------------------------------------------------

    const Web = z.object({
      chatbot: z.object({
        id: z.string(),
        business_name: z.string(),
        charla_key: z.string(),
        web_enabled: z.boolean(),
      }),
      ialanding: z.object({ slug: z.string(), is_active: z.boolean() }),
      daysRemaining: z.number().int(),
      paid: z.boolean(),
    });

    app.get(
      '/api/charla-web',
      {
        config: { owner: { self: true } },
        schema: {
          summary: 'The owner’s web channel (load rules applied)',
          description:
            'Spec 001 §4 web channel load: an owner without a bot gets one named after the e-mail’s local ' +
            'part (or "Mi Bot") with a key and an IALanding; a bot without a key gets one; a bot without an ' +
            'IALanding gets one. Returns the bot’s web fields, its IALanding and the days remaining.',
          tags: ['web'],
          response: { 200: Web, 401: ErrorBody },
        },
      },
      async (req) => {
        const { db } = ctx();
        const owner = await ctx().requireOwner(req);
        let bot = await findNewestChatbot(db, owner.id);
        if (!bot) {
          bot = await insertChatbot(db, {
            user_id: owner.id,
            business_name: owner.email.split('@')[0] || 'Mi Bot',
            business_description: '',
            charla_key: newCharlaKey(),
          });
        } else if (!bot.charla_key) {
          const key = newCharlaKey();
          await updateWebFields(db, bot.id, { charla_key: key });
          bot = { ...bot, charla_key: key };
        }
        const landing = await ensureIalanding(db, bot);
        const profile = await findProfile(db, owner.id);
        const days = daysRemaining(profile);
        const paid = isPaid(profile);
        return {
          chatbot: {
            id: bot.id,
            business_name: bot.business_name,
            charla_key: bot.charla_key!,
            web_enabled: bot.web_enabled,
          },
          ialanding: { slug: landing.slug, is_active: landing.is_active },
          daysRemaining: days,
          paid,
        };
      },
    );

    const ownedBot = async (req: FastifyRequest, chatbotId: string | undefined) => {
      const owner = await ctx().requireOwner(req);
      if (!chatbotId) throw new AppError('BAD_REQUEST', WEB_ERRORS.missingChatbot);
      const bot = await findOwnedChatbot(ctx().db, owner.id, chatbotId);
      if (!bot) throw botNotFound();
      return bot;
    };

    app.post(
      '/api/charla-web/toggle',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'POST',
              url: '/api/charla-web/toggle',
              json: { chatbotId: a.botId, enabled: true },
            }),
          },
        },
        schema: {
          summary: 'Switch the web service on or off',
          description: 'Spec 001 §7: sets `web_enabled`; the dashboard changes its screen only on a 200.',
          tags: ['web'],
          body: z.object({ chatbotId: z.string().max(100).optional(), enabled: z.boolean() }),
          response: {
            200: z.object({ web_enabled: z.boolean() }),
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.body.chatbotId);
        await updateWebFields(ctx().db, bot.id, { web_enabled: req.body.enabled });
        ctx().log.info({ chatbotId: bot.id, web_enabled: req.body.enabled }, 'web service switched');
        return { web_enabled: req.body.enabled };
      },
    );

    app.post(
      '/api/charla-web/key',
      {
        config: {
          owner: {
            probe: (a) => ({ method: 'POST', url: '/api/charla-web/key', json: { chatbotId: a.botId } }),
          },
        },
        schema: {
          summary: 'The bot’s web key, generated when it has none',
          description: 'Spec 001 §4: generating the embed code with no key generates one (random, URL-safe).',
          tags: ['web'],
          body: z.object({ chatbotId: z.string().max(100).optional() }),
          response: {
            200: z.object({ charla_key: z.string() }),
            400: ErrorBody,
            401: ErrorBody,
            404: ErrorBody,
          },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.body.chatbotId);
        if (bot.charla_key) return { charla_key: bot.charla_key };
        const key = newCharlaKey();
        await updateWebFields(ctx().db, bot.id, { charla_key: key });
        return { charla_key: key };
      },
    );

    app.post(
      '/api/charla-web/ialanding',
      {
        config: {
          owner: {
            probe: (a) => ({
              method: 'POST',
              url: '/api/charla-web/ialanding',
              json: { chatbotId: a.botId, key: 'x' },
            }),
          },
        },
        schema: {
          summary: 'Enter the IALanding: create it or bring it up to date',
          description:
            'Spec 001 §4: needs the chatbot id and key ("Error: No se encontró la configuración del chatbot." ' +
            'otherwise). An active IALanding with the key whose slug or name differ from the bot’s is updated; ' +
            'without one it is created. Returns the slug to open.',
          tags: ['web'],
          body: z.object({ chatbotId: z.string().max(100).optional(), key: z.string().max(100).optional() }),
          response: { 200: z.object({ slug: z.string() }), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
        },
      },
      async (req) => {
        const bot = await ownedBot(req, req.body.chatbotId);
        if (!req.body.key || req.body.key !== bot.charla_key)
          throw new AppError('BAD_REQUEST', WEB_ERRORS.missingChatbot);
        const { db } = ctx();
        const landing =
          (await findActiveIalandingByKey(db, bot.charla_key)) ?? (await findIalandingByChatbot(db, bot.id));
        if (!landing) return { slug: (await ensureIalanding(db, bot)).slug };
        const slug = await freeIalandingSlug(db, bot.business_name, bot.id);
        if (
          landing.slug !== slug ||
          landing.business_name !== bot.business_name ||
          landing.charla_key !== bot.charla_key
        )
          await updateIalanding(db, landing.id, {
            slug,
            business_name: bot.business_name,
            charla_key: bot.charla_key,
          });
        return { slug };
      },
    );
  };
}
