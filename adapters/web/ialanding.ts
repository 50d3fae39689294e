/**
 * The public IALanding (issue 6, spec 001 §2, §4): `GET /api/ialanding/:slug` (the landing, its
 * bot's greeting, availability and files) and the page `/ialanding/:slug` itself, the dashboard's
 * HTML with the landing's title, description and Open Graph tags so a shared link previews well.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { greeting } from '../../engine/conversation/texts.ts';
import { AppError } from '../../engine/errors.ts';
import { FileRecord, fileRecord } from '../../engine/http/views.ts';
import { publicDescription } from '../../engine/ranking/index.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { LANG_CODES, languageCode } from '../../engine/schemas.ts';
import { findChatbot, findChatbotByKey } from '../../engine/store/queries/chatbots.ts';
import { listFiles } from '../../engine/store/queries/files.ts';
import {
  findActiveIalandingBySlug,
  findIalandingRedirect,
  updateIalanding,
} from '../../engine/store/queries/ialandings.ts';
import { availability, cors, ErrorBody, html } from './shared.ts';
import { WEB_ERRORS } from './texts.ts';

export function ialandingRoutes(ctx: () => ChannelContext): FastifyPluginAsyncZod {
  return async (app) => {
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
            'business name is repaired from the bot’s. A slug the landing had before (issue 10 §8: the ' +
            'accented rule, or a renamed business) finds it too; `slug` is then the current one.',
          tags: ['web'],
          params: z.object({ slug: z.string().min(1).max(300) }),
          response: {
            200: z.object({
              slug: z.string(),
              business_name: z.string(),
              public_description: z
                .string()
                .describe(
                  'Issue 10 §7: the bot’s public description, or the first sentences of its business description without instructions.',
                ),
              charla_key: z.string(),
              idioma: z.string(),
              lang: z.enum(LANG_CODES),
              greeting: z.string(),
              available: z.boolean(),
              unavailableText: z.string().nullable(),
              offline: z
                .boolean()
                .describe('True while no LLM is configured (answers come from the offline responder).'),
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
          public_description: publicDescription(bot, lang),
          charla_key: bot.charla_key!,
          idioma: bot.idioma,
          lang,
          greeting: greeting(lang, bot.business_name),
          ...(await availability(ctx(), bot)),
          offline: ctx().offline,
          files: files.map((f) => fileRecord(f, ctx().publicUrl)),
        };
      },
    );

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

    // The landing page itself: the dashboard's HTML with the landing's own title and previews.
    // A slug the landing had before answers 301 to the current one (issue 10 §8).
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
        const index = join(ctx().distDir, 'dashboard', 'index.html');
        if (!existsSync(index)) return reply.code(404).send({ error: 'dashboard not built' });
        let page = await readFile(index, 'utf8');
        let canonical = '';
        try {
          const { landing, bot } = await landingBySlug(req.params.slug);
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
          const url = `${ctx().publicUrl ?? `${req.protocol}://${req.host}`}/ialanding/${landing.slug}`;
          canonical = url;
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
          // Unknown or inactive (issue 16 §2): 404 with the spec's text in the HTML, so a search
          // engine drops the address; the app then renders the same error state.
          const text = err.status === 404 ? WEB_ERRORS.landingNotFound : err.message;
          page = page
            .replace(
              /<title>[^<]*<\/title>/,
              () => `<title>${html(text)} · Charla</title>\n    <meta name="robots" content="noindex">`,
            )
            .replace(
              '<div id="root"></div>',
              () => `<div id="root"><main><h1>${html(text)}</h1><p><a href="/">Charla</a></p></main></div>`,
            );
          return reply
            .code(err.status)
            .header('cache-control', 'no-cache')
            .type('text/html; charset=utf-8')
            .send(page);
        }
        // The canonical address of the landing, for search engines.
        page = page.replace('</head>', () => `<link rel="canonical" href="${html(canonical)}">\n  </head>`);
        return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
      },
    );
  };
}
