/**
 * Owner routes: configure and save a bot (spec 000 §7); its files are in routes/files.ts.
 * Every route takes the owner from the request (engine/http/auth.ts) and reads and writes only
 * that owner's rows; another owner's ids answer 404, so ids are not confirmed.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { relanguageBot } from '../../knowledge/index.ts';
import {
  BOT_LANGUAGES,
  CategoryInput,
  DEFAULT_BOT_LANGUAGE,
  DEFAULT_CATEGORY,
  languageCode,
  PUBLIC_DESCRIPTION_MAX,
  STYLES,
} from '../../schemas.ts';
import type { Chatbot } from '../../store/database.ts';
import { findNewestChatbot, insertChatbot, updateOwnedChatbot } from '../../store/queries/chatbots.ts';
import { requireOwner } from '../auth.ts';
import { OwnerChatbot } from '../views.ts';
import type { RouteDeps } from './deps.ts';

/** Spec 000 §5 texts for a save without name or description. */
export const CONFIG_MESSAGES = {
  missingTitle: 'Faltan datos',
  missing: 'Indica el nombre de la empresa y la descripción del bot.',
  missingConfigure: 'Por favor completa al menos el nombre del negocio y la descripción del comportamiento',
} as const;

const ErrorBody = z.object({ error: z.string(), title: z.string().optional() });
const IdResult = z.object({ id: z.string() });

/** Body of `POST /api/save-chatbot` (spec 000 §7). `user_id` is ignored: the owner comes from the session. */
export const SaveChatbotBody = z.object({
  id: z.string().max(100).optional(),
  user_id: z.string().optional(),
  business_name: z.string().max(200).default(''),
  business_description: z.string().max(20_000).default(''),
  public_description: z
    .string()
    .max(PUBLIC_DESCRIPTION_MAX)
    .optional()
    .describe(
      'Issue 10 §7: what the public IALanding says about the business; empty shows the first sentences of the business description without instructions.',
    ),
  chatbot_style: z.enum(STYLES).optional(),
  expectations: z.string().max(10_000).optional(),
  enable_web_search: z.boolean().optional(),
  enable_audio: z
    .boolean()
    .optional()
    .describe('Issue 15 §2: replies also go out as voice notes (voice plugin).'),
  enable_reservations: z.boolean().optional(),
  selected_voice_id: z.string().max(200).nullable().optional(),
  is_public: z.boolean().optional(),
  category: CategoryInput.optional().describe(
    'Issue 29: one of the categories; a spec name maps to its new one.',
  ),
  idioma: z.enum(BOT_LANGUAGES).optional(),
  timezone: z.string().max(64).optional(),
});

/** Body of `POST /api/configure-chatbot` (spec 000 §7, the earlier-style AI step). */
export const ConfigureChatbotBody = z.object({
  user_id: z.string().optional(),
  businessName: z.string().max(200).default(''),
  businessDescription: z.string().max(20_000).default(''),
  systemPrompt: z.string().max(20_000).optional(),
  chatbotStyle: z.enum(STYLES).optional(),
  expectations: z.string().max(10_000).optional(),
});

/** A bot as its owner sees it ({@link OwnerChatbot}: secrets left out). */
export function ownerBotView(bot: Chatbot): OwnerChatbot {
  return {
    id: bot.id,
    business_name: bot.business_name,
    business_description: bot.business_description,
    public_description: bot.public_description,
    chatbot_style: bot.chatbot_style,
    expectations: bot.expectations,
    system_prompt: bot.system_prompt,
    enable_audio: bot.enable_audio,
    enable_web_search: bot.enable_web_search,
    enable_reservations: bot.enable_reservations,
    telegram_username: bot.telegram_username,
    telegram_connected: Boolean(bot.telegram_token),
    whatsapp_number: bot.whatsapp_number,
    is_public: bot.is_public,
    category: bot.category,
    idioma: bot.idioma,
    selected_voice_id: bot.selected_voice_id,
    responses_count: bot.responses_count,
    likes_count: bot.likes_count,
    charla_key: bot.charla_key,
    web_enabled: bot.web_enabled,
    widget_origin: bot.widget_origin,
    widget_seen_at: bot.widget_seen_at ? new Date(bot.widget_seen_at).toISOString() : null,
    timezone: bot.timezone,
    created_at: new Date(bot.created_at).toISOString(),
  };
}

export const ownerRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  const owner = (req: Parameters<typeof requireOwner>[0]) => requireOwner(req, deps);

  app.get(
    '/api/my-chatbot',
    {
      config: { owner: { self: true } },
      schema: {
        summary: 'The signed-in owner’s newest bot',
        description:
          'Spec 000 §3: the newest chatbot of a user is the one loaded. `{bot: null}` when the owner has none yet: a new owner is an expected state, not an error (issue 10).',
        tags: ['owner'],
        response: { 200: z.object({ bot: OwnerChatbot.nullable() }), 401: ErrorBody },
      },
    },
    async (req) => {
      const me = await owner(req);
      const bot = await findNewestChatbot(deps.db, me.id);
      return { bot: bot ? ownerBotView(bot) : null };
    },
  );

  app.post(
    '/api/save-chatbot',
    {
      config: {
        owner: {
          probe: (a) => ({
            method: 'POST',
            url: '/api/save-chatbot',
            json: { id: a.botId, business_name: 'x', business_description: 'y' },
          }),
        },
      },
      schema: {
        summary: 'Create or update the owner’s bot',
        description:
          'Spec 000 §7. With `id`, updates that bot of the owner (404 when it is not theirs); without, creates one with the spec defaults (is_public true, idioma English, category Servicios Profesionales — issue 29; not listed in Facebots until published; its web channel on, issue 29). Name and description are required (400 "Faltan datos").',
        tags: ['owner'],
        body: SaveChatbotBody,
        response: { 200: IdResult, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const b = req.body;
      const name = b.business_name.trim();
      const description = b.business_description.trim();
      if (!name || !description)
        return reply.code(400).send({ error: CONFIG_MESSAGES.missing, title: CONFIG_MESSAGES.missingTitle });
      const values = {
        business_name: name,
        business_description: description,
        ...(b.public_description !== undefined ? { public_description: b.public_description.trim() } : {}),
        ...(b.chatbot_style !== undefined ? { chatbot_style: b.chatbot_style } : {}),
        ...(b.expectations !== undefined ? { expectations: b.expectations.trim() } : {}),
        ...(b.enable_web_search !== undefined ? { enable_web_search: b.enable_web_search } : {}),
        ...(b.enable_audio !== undefined ? { enable_audio: b.enable_audio } : {}),
        ...(b.enable_reservations !== undefined ? { enable_reservations: b.enable_reservations } : {}),
        ...(b.selected_voice_id !== undefined ? { selected_voice_id: b.selected_voice_id } : {}),
        ...(b.is_public !== undefined ? { is_public: b.is_public } : {}),
        ...(b.category !== undefined ? { category: b.category } : {}),
        ...(b.idioma !== undefined ? { idioma: b.idioma } : {}),
        ...(b.timezone !== undefined ? { timezone: b.timezone } : {}),
      };
      if (b.id) {
        const bot = await updateOwnedChatbot(deps.db, me.id, b.id, values);
        if (!bot) throw new AppError('NOT_FOUND', 'ID de chatbot no disponible');
        deps.engine.cache.invalidate(bot.id);
        // Issue 30 §2: the files' passages are searched with the new language's configuration.
        if (b.idioma !== undefined) await relanguageBot(deps.db, bot.id, languageCode(bot.idioma));
        return { id: bot.id };
      }
      // Issue 29: a saved bot's web channel is on from the start (the owner can switch it off).
      const bot = await insertChatbot(deps.db, {
        user_id: me.id,
        category: DEFAULT_CATEGORY,
        idioma: DEFAULT_BOT_LANGUAGE,
        web_enabled: true,
        ...values,
      });
      return { id: bot.id };
    },
  );

  app.post(
    '/api/configure-chatbot',
    {
      config: { owner: { self: true } },
      schema: {
        summary: 'Configure the AI of the owner’s bot',
        description:
          'Spec 000 §7 (the AI configuration step): sets name, description, style, expectations and system prompt on the owner’s newest bot, creating it when there is none.',
        tags: ['owner'],
        body: ConfigureChatbotBody,
        response: { 200: IdResult, 400: ErrorBody, 401: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await owner(req);
      const b = req.body;
      const name = b.businessName.trim();
      const description = b.businessDescription.trim();
      if (!name || !description) return reply.code(400).send({ error: CONFIG_MESSAGES.missingConfigure });
      const values = {
        business_name: name,
        business_description: description,
        ...(b.chatbotStyle !== undefined ? { chatbot_style: b.chatbotStyle } : {}),
        ...(b.expectations !== undefined ? { expectations: b.expectations.trim() } : {}),
        ...(b.systemPrompt !== undefined ? { system_prompt: b.systemPrompt.trim() || null } : {}),
      };
      const newest = await findNewestChatbot(deps.db, me.id);
      const bot = newest
        ? await updateOwnedChatbot(deps.db, me.id, newest.id, values)
        : await insertChatbot(deps.db, { user_id: me.id, web_enabled: true, ...values });
      deps.engine.cache.invalidate(bot!.id);
      return { id: bot!.id };
    },
  );
};
