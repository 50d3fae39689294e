/**
 * Publishing a bot in Facebots (issue 29 §"Setting up the bot"): a new bot is private (not in the
 * directory, the site's bot pages or the sitemap) until its owner publishes it; publishing needs a
 * description the card can show and the web service on (so the listing's IALanding answers), and
 * turns `is_public` on; unpublishing takes it off the directory (its IALanding stays reachable by
 * its link, with `noindex`).
 *
 * - `GET  /api/facebots/publish/:chatbotId`: the state and what the listing shows;
 * - `POST /api/facebots/publish/:chatbotId` `{published}`: publishes or unpublishes.
 */
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { requestLanguage } from '../../engine/auth/mail.ts';
import { publicDescription } from '../../engine/ranking/index.ts';
import type { PluginContext } from '../../engine/registry/index.ts';
import { BotParams } from '../../engine/registry/owner-routes.ts';
import { type LangCode, languageCode } from '../../engine/schemas.ts';
import type { Chatbot } from '../../engine/store/database.ts';
import { type Blocker, PublishState } from './api.ts';
import type { FacebotsDb } from './queries.ts';

/** The refusals in the owner's language (`x-app-language`, then `Accept-Language`; es otherwise). */
const BLOCKER_TEXTS: Record<LangCode, Record<Blocker, string>> = {
  es: {
    needsDescription: 'Añade una descripción de tu negocio antes de publicar el bot en Facebots.',
    needsWeb: 'Activa el servicio web antes de publicar el bot en Facebots.',
  },
  en: {
    needsDescription: 'Add a description of your business before publishing the bot in Facebots.',
    needsWeb: 'Turn the web service on before publishing the bot in Facebots.',
  },
  fr: {
    needsDescription: 'Ajoute une description de ton entreprise avant de publier le bot sur Facebots.',
    needsWeb: 'Active le service web avant de publier le bot sur Facebots.',
  },
  de: {
    needsDescription:
      'Füge eine Beschreibung deines Geschäfts hinzu, bevor du den Bot in Facebots veröffentlichst.',
    needsWeb: 'Schalte den Webdienst ein, bevor du den Bot in Facebots veröffentlichst.',
  },
  it: {
    needsDescription: 'Aggiungi una descrizione della tua attività prima di pubblicare il bot su Facebots.',
    needsWeb: 'Attiva il servizio web prima di pubblicare il bot su Facebots.',
  },
  ru: {
    needsDescription: 'Добавьте описание вашего бизнеса, прежде чем публиковать бота в Facebots.',
    needsWeb: 'Включите веб-сервис, прежде чем публиковать бота в Facebots.',
  },
  hi: {
    needsDescription: 'Facebots में बॉट प्रकाशित करने से पहले अपने व्यवसाय का विवरण जोड़ें।',
    needsWeb: 'Facebots में बॉट प्रकाशित करने से पहले वेब सेवा चालू करें।',
  },
};

const ErrorBody = z.object({ error: z.string(), code: z.string().optional() });

async function stateOf(db: FacebotsDb, bot: Chatbot): Promise<PublishState> {
  const landing = await db
    .selectFrom('ialandings')
    .select('slug')
    .where('chatbot_id', '=', bot.id)
    .where('is_active', '=', true)
    .executeTakeFirst();
  const description = publicDescription(bot, languageCode(bot.idioma)).slice(0, 280);
  const blockers: Blocker[] = [];
  if (!description.trim()) blockers.push('needsDescription');
  if (!bot.web_enabled) blockers.push('needsWeb');
  return {
    published_at: bot.published_at ? new Date(bot.published_at).toISOString() : null,
    blockers,
    listing: {
      business_name: bot.business_name,
      description,
      category: bot.category,
      telegram_username: bot.telegram_token ? (bot.telegram_username?.replace(/^@/, '') ?? null) : null,
      ialanding_slug: landing?.slug ?? null,
    },
  };
}

/** The publish routes (owner routes: the bot must be the signed-in owner's, 404 otherwise). */
export function publishRoutes(db: FacebotsDb, ctx: PluginContext): FastifyPluginAsync {
  const probe = (method: 'GET' | 'POST') => ({
    owner: {
      probe: (a: { botId: string }) => ({
        method,
        url: `/api/facebots/publish/${a.botId}`,
        ...(method === 'POST' ? { json: { published: false } } : {}),
      }),
    },
  });
  return async (app) => {
    app.get<{ Params: { chatbotId: string } }>(
      '/api/facebots/publish/:chatbotId',
      {
        config: probe('GET'),
        schema: {
          summary: 'Whether the owner’s bot is published in Facebots, and what its listing shows',
          description:
            'Issue 29: `published_at` (null while private), `blockers` (`needsDescription`, `needsWeb`) and the listing’s ' +
            'name, description, category, Telegram username and IALanding slug.',
          tags: ['facebots'],
          params: BotParams,
          response: { 200: PublishState, 404: ErrorBody },
        },
      },
      async (req) => stateOf(db, (await ctx.bots.owned(req, req.params.chatbotId)).bot),
    );

    app.post<{ Params: { chatbotId: string }; Body: { published: boolean } }>(
      '/api/facebots/publish/:chatbotId',
      {
        config: probe('POST'),
        schema: {
          summary: 'Publishes or unpublishes the owner’s bot in Facebots',
          description:
            'Issue 29: `{published: true}` lists the bot (and turns `is_public` on); 409 `{error, code}` in the owner’s ' +
            'language (`x-app-language`, `Accept-Language`) when it has no description to show (`needsDescription`) or ' +
            'the web service is off (`needsWeb`). `{published: false}` takes it off the directory.',
          tags: ['facebots'],
          params: BotParams,
          body: z.object({ published: z.boolean() }),
          response: { 200: PublishState, 404: ErrorBody, 409: ErrorBody },
        },
      },
      async (req, reply) => {
        const { bot } = await ctx.bots.owned(req, req.params.chatbotId);
        if (req.body.published) {
          const blocker = (await stateOf(db, bot)).blockers[0];
          if (blocker)
            return reply
              .code(409)
              .send({ error: BLOCKER_TEXTS[requestLanguage(req.headers)][blocker], code: blocker });
        }
        const updated = await db
          .updateTable('chatbots')
          .set(
            req.body.published
              ? { published_at: bot.published_at ?? new Date(), is_public: true }
              : { published_at: null },
          )
          .where('id', '=', bot.id)
          .returningAll()
          .executeTakeFirstOrThrow();
        ctx.bots.changed(bot.id);
        return stateOf(db, updated);
      },
    );
  };
}
