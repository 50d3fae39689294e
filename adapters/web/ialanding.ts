/**
 * The public IALanding (issue 6, spec 001 §2, §4): `GET /api/ialanding/:slug` (the landing, its
 * bot's greeting, availability and files) and the page `/ialanding/:slug` itself, rendered on the
 * server from the dashboard's components (ialanding-page.ts, issue 16) with the landing's title,
 * description, canonical address and Open Graph tags, so a shared link previews well and a phone
 * shows the page before its script has loaded.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { greeting } from '../../engine/conversation/texts.ts';
import { AppError } from '../../engine/errors.ts';
import { sendHtml } from '../../engine/http/html-page.ts';
import { fileRecord } from '../../engine/http/views.ts';
import { publicDescription } from '../../engine/ranking/index.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import { findChatbot, findChatbotByKey } from '../../engine/store/queries/chatbots.ts';
import { listFiles } from '../../engine/store/queries/files.ts';
import { LandingView, landingErrorPage, landingPage } from './ialanding-page.ts';
import { findActiveIalandingBySlug, findIalandingRedirect, updateIalanding } from './queries.ts';
import { availability, ErrorBody, html, PUBLIC_CORS } from './shared.ts';
import { WEB_ERRORS } from './texts.ts';

export function ialandingRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/ialanding/:slug',
      {
        ...PUBLIC_CORS,
        schema: {
          summary: 'A public IALanding',
          description:
            'Spec 001 §4: an active IALanding by slug, with its bot’s key, greeting (bot language), ' +
            'availability and files. 404 "IALanding no encontrada" when missing or inactive; 404 "No se ' +
            'encontró la configuración del bot para este IALanding." when its bot is gone. An empty ' +
            'business name is repaired from the bot’s. A slug the landing had before (issue 10 §8: the ' +
            'accented rule, or a renamed business) finds it too; `slug` is then the current one.',
          tags: ['web'],
          params: z.object({ slug: z.string().min(1).max(300) }),
          response: {
            200: LandingView,
            404: ErrorBody,
          },
        },
      },
      async (req) => view(await landingBySlug(req.params.slug)),
    );

    /** The landing as the API answers it and the page carries it. */
    async function view({ landing, bot }: Awaited<ReturnType<typeof landingBySlug>>): Promise<LandingView> {
      const lang = languageCode(bot.idioma);
      const files = await listFiles(ctx().db, bot.id);
      return {
        slug: landing.slug,
        business_name: landing.business_name || bot.business_name,
        public_description: publicDescription(bot, lang),
        charla_key: bot.charla_key!,
        idioma: bot.idioma,
        lang,
        greeting: greeting(lang, bot.business_name),
        ...(await availability(ctx(), bot)),
        offline: ctx().offline,
        files: files.map((f) => fileRecord(f, ctx().publicUrl)),
      };
    }

    /**
     * An active landing and its bot, repairing an empty business name (spec 001 §4). A slug the
     * landing had before finds it through its redirect (issue 10 §8).
     */
    async function landingBySlug(slug: string) {
      const { db } = ctx();
      const current = await findActiveIalandingBySlug(db, slug);
      const moved = current ? undefined : await findIalandingRedirect(db, slug);
      const landing = current ?? (moved ? await findActiveIalandingBySlug(db, moved) : undefined);
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

    // The landing page itself, rendered here (ialanding-page.ts). A slug the landing had before
    // answers 301 to the current one (issue 10 §8).
    app.get<{ Params: { slug: string } }>(
      '/ialanding/:slug',
      { config: { public: true }, schema: { hide: true } },
      async (req, reply) => {
        const moved =
          (await findActiveIalandingBySlug(ctx().db, req.params.slug)) === undefined
            ? await findIalandingRedirect(ctx().db, req.params.slug)
            : undefined;
        if (moved) {
          const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
          return reply.redirect(`/ialanding/${encodeURIComponent(moved)}${query}`, 301);
        }
        let found: Awaited<ReturnType<typeof landingBySlug>>;
        try {
          found = await landingBySlug(req.params.slug);
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          // Unknown or inactive (issue 16 §2): 404 with the spec's text in the HTML and `noindex`, so
          // a search engine drops the address.
          const reason = err.message === WEB_ERRORS.keyNotFound ? 'noBot' : 'notFound';
          const text = reason === 'noBot' ? WEB_ERRORS.keyNotFound : WEB_ERRORS.landingNotFound;
          return sendHtml(reply, await landingErrorPage(ctx().distDir, reason, text), 404);
        }
        const { landing, bot } = found;
        const name = landing.business_name || bot.business_name;
        const lang = languageCode(bot.idioma);
        const description = (publicDescription(bot, lang) || greeting(lang, name))
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
        const origin = ctx().publicUrl ?? `${req.protocol}://${req.host}`;
        const url = `${origin}/ialanding/${landing.slug}`;
        const image = (await listFiles(ctx().db, bot.id)).find((f) => f.file_type === 'image');
        const head = [
          `<meta name="description" content="${html(short)}">`,
          `<link rel="canonical" href="${html(url)}">`,
          `<meta property="og:type" content="website">`,
          `<meta property="og:title" content="${html(name)}">`,
          `<meta property="og:description" content="${html(short)}">`,
          `<meta property="og:url" content="${html(url)}">`,
          ...(image
            ? [`<meta property="og:image" content="${html(fileRecord(image, origin).publicUrl)}">`]
            : []),
          `<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}">`,
          // Issue 29: an unpublished bot's landing answers its link but stays out of search engines.
          ...(bot.published_at ? [] : ['<meta name="robots" content="noindex">']),
        ];
        const page = await landingPage(ctx().distDir, await view(found), head);
        return sendHtml(reply, page);
      },
    );
  };
}
