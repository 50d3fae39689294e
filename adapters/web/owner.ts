/**
 * The owner's web channel routes (spec 001 §4, §7): `GET /api/charla-web` (the web channel load
 * rules), `POST /api/charla-web/toggle`, `POST /api/charla-web/key` and
 * `POST /api/charla-web/ialanding`. Another owner's bot answers 404.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { daysRemaining, isPaid } from '../../engine/auth/profiles.ts';
import { AppError } from '../../engine/errors.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { botLanguageFor } from '../../engine/schemas.ts';
import { newCharlaKey } from '../../engine/secrets.ts';
import { findNewestChatbot, insertChatbot, updateWebFields } from '../../engine/store/queries/chatbots.ts';
import {
  ensureIalanding,
  findIalandingByChatbot,
  freeIalandingSlug,
} from '../../engine/store/queries/ialandings.ts';
import { findProfile } from '../../engine/store/queries/owners.ts';
import { errorBodies } from '../shared/channel-api.ts';
import { probePost, requireOwnedBot } from '../shared/owner-routes.ts';
import { findActiveIalandingByKey, updateIalanding } from './queries.ts';
import { WEB_ERRORS } from './texts.ts';

export function webOwnerRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    const Web = z.object({
      chatbot: z.object({
        id: z.string(),
        business_name: z.string(),
        charla_key: z.string(),
        web_enabled: z.boolean(),
      }),
      ialanding: z.object({ slug: z.string(), is_active: z.boolean() }),
      /** The owner's plan (`free`, `premium`, `monthly`…), null without a profile. */
      plan: z.string().nullable(),
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
            'IALanding gets one. A bot created here speaks the interface language the dashboard sends as ' +
            '`x-app-language` (issue 10). Returns the bot’s web fields, its IALanding, the plan and the days remaining.',
          tags: ['web'],
          response: { 200: Web, ...errorBodies(401) },
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
            idioma: botLanguageFor(String(req.headers['x-app-language'] ?? '')),
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
          plan: profile?.plan ?? null,
          daysRemaining: days,
          paid,
        };
      },
    );

    const ownedBot = (req: FastifyRequest, chatbotId: string | undefined) =>
      requireOwnedBot(ctx(), req, chatbotId, WEB_ERRORS.missingChatbot);

    app.post(
      '/api/charla-web/toggle',
      {
        config: probePost('/api/charla-web/toggle', { enabled: true }),
        schema: {
          summary: 'Switch the web service on or off',
          description: 'Spec 001 §7: sets `web_enabled`; the dashboard changes its screen only on a 200.',
          tags: ['web'],
          body: z.object({ chatbotId: z.string().max(100).optional(), enabled: z.boolean() }),
          response: {
            200: z.object({ web_enabled: z.boolean() }),
            ...errorBodies(400, 401, 404),
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
        config: probePost('/api/charla-web/key'),
        schema: {
          summary: 'The bot’s web key, generated when it has none',
          description: 'Spec 001 §4: generating the embed code with no key generates one (random, URL-safe).',
          tags: ['web'],
          body: z.object({ chatbotId: z.string().max(100).optional() }),
          response: {
            200: z.object({ charla_key: z.string() }),
            ...errorBodies(400, 401, 404),
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
        config: probePost('/api/charla-web/ialanding', { key: 'x' }),
        schema: {
          summary: 'Enter the IALanding: create it or bring it up to date',
          description:
            'Spec 001 §4: needs the chatbot id and key ("Error: No se encontró la configuración del chatbot." ' +
            'otherwise). An active IALanding with the key whose slug or name differ from the bot’s is updated; ' +
            'without one it is created. Returns the slug to open.',
          tags: ['web'],
          body: z.object({ chatbotId: z.string().max(100).optional(), key: z.string().max(100).optional() }),
          response: { 200: z.object({ slug: z.string() }), ...errorBodies(400, 401, 404) },
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
