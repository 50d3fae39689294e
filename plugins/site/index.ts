/**
 * The public site (spec 001 §1, §2 route table and marketing home, §3 marketing content, §4 Home
 * page and language, §7 `POST /api/chat`; issue 16): the marketing home in seven languages, the
 * legal pages, the Facebots directory and a page per bot, all rendered to HTML on the server; the
 * sitemap and robots.txt (seo.ts); the site assistant's answers (chat-route.ts). Through the
 * registry: routes only.
 *
 * - `GET /`, `/en/`, `/fr/`, `/de/`, `/it/`, `/hi/`, `/ru/`: the home page (React rendered on the server);
 * - `GET [/<lang>]/legal/{tos,privacy,security}`: the legal pages;
 * - `GET /facebots/:slug`: a listed bot's page, or a home-page sample's;
 * - `GET [/<lang>]/facebots`: the directory (sorts as links, the category filter a form, paging links);
 * - `GET /sitemap.xml`, `/robots.txt`, `/favicon.svg`, `/site/*` (the site script and media);
 * - `POST /api/chat` `{message, lang?, history?}` → `{response}`: the site assistant, rate-limited.
 *
 * Settings (environment): CHARLA_TRIAL_DAYS (the trial the pages state), CHARLA_OPERATOR_NAME,
 * CHARLA_OPERATOR_EMAIL (named on the legal pages and in the footer), CHARLA_SOURCE_URL (the footer's
 * source-code link, AGPL-3.0 §13).
 */
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { createElement } from 'react';
import { z } from 'zod';
import { sendHtml } from '../../engine/http/html-page.ts';
import { definePlugin, type FeaturePlugin, type PluginContext } from '../../engine/registry/index.ts';
import type { Database } from '../../engine/store/database.ts';
import { CUSTOM_PLAN, MONTHLY_PLAN } from '../billing/api.ts';
import { DirectoryQuery, type DirectoryService, PAGE_SIZE } from '../facebots/api.ts';
import { listedBot, loadAssets, mediaDir } from './assets.ts';
import { chatRoute } from './chat-route.ts';
import {
  botSlug,
  CONTENT,
  fill,
  LEGAL_PAGES,
  type LegalPageId,
  localePath,
  placeholders,
  SITE_LANGUAGES,
  type SiteLanguage,
} from './content/index.ts';
import { BotPage } from './pages/BotPage.tsx';
import type { DirectoryView } from './pages/Directory.tsx';
import { Home } from './pages/Home.tsx';
import type { PageContext } from './pages/Layout.tsx';
import { Legal } from './pages/Legal.tsx';
import { allLanguages, type Head, renderDocument, type SiteAssets } from './render.tsx';
import { seoRoutes } from './seo.ts';

/** The plugin's settings, from the environment (its `envSchema`). */
const Settings = z.object({
  CHARLA_TRIAL_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  CHARLA_OPERATOR_NAME: z.string().trim().min(1).optional(),
  CHARLA_OPERATOR_EMAIL: z.string().trim().email().optional(),
  CHARLA_SOURCE_URL: z.string().trim().url().optional(),
});

function routes(
  ctx: PluginContext<z.infer<typeof Settings>>,
  directory: DirectoryService,
): FastifyPluginAsync {
  const { settings } = ctx;
  const operator = { name: settings.CHARLA_OPERATOR_NAME, email: settings.CHARLA_OPERATOR_EMAIL };
  let assets: SiteAssets | undefined;
  const siteAssets = () => {
    assets ??= loadAssets(ctx.distDir);
    return assets;
  };
  const origin = (req: FastifyRequest) =>
    ctx.publicUrl?.replace(/\/$/, '') ?? `${req.protocol}://${req.host}`;
  const pageContext = (lang: SiteLanguage, page: string, translated: boolean): PageContext => ({
    lang,
    page,
    values: placeholders(lang, settings.CHARLA_TRIAL_DAYS),
    contactEmail: settings.CHARLA_OPERATOR_EMAIL,
    sourceUrl: settings.CHARLA_SOURCE_URL,
    translated,
  });
  const send = sendHtml;

  const organization = (o: string) => ({
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: 'Charla',
    url: `${o}/`,
    logo: `${o}/favicon.svg`,
    ...(settings.CHARLA_OPERATOR_EMAIL ? { email: settings.CHARLA_OPERATOR_EMAIL } : {}),
  });

  return async (app) => {
    await app.register(fastifyStatic, {
      root: [join(ctx.distDir, 'site'), mediaDir(ctx.distDir)],
      prefix: '/site/',
      decorateReply: false,
      // The build writes .br and .gz copies (scripts/precompress.mjs).
      preCompressed: true,
      index: false,
      list: false,
      setHeaders(res, path) {
        res.header('X-Content-Type-Options', 'nosniff');
        // The script's name carries its content hash; media change rarely.
        res.header(
          'cache-control',
          /site-[\w-]+\.js$|chunk-[\w-]+\.js$/.test(path)
            ? 'public, max-age=31536000, immutable'
            : 'public, max-age=86400',
        );
      },
    });

    // The home page in each language.
    for (const lang of SITE_LANGUAGES) {
      const path = localePath(lang, '');
      const handler = async (req: FastifyRequest, reply: FastifyReply) => {
        const t = CONTENT[lang];
        const pctx = pageContext(lang, '', true);
        const o = origin(req);
        const head: Head = {
          lang,
          title: t.meta.title,
          description: fill(t.meta.description, pctx.values),
          canonical: o + path,
          alternates: allLanguages(''),
          image: `${o}/site/media/artist.svg`,
          jsonLd: [
            organization(o),
            {
              '@context': 'https://schema.org',
              '@type': 'SoftwareApplication',
              name: 'Charla',
              applicationCategory: 'BusinessApplication',
              operatingSystem: 'Web',
              inLanguage: lang,
              description: fill(t.meta.description, pctx.values),
              url: o + path,
              offers: [
                {
                  '@type': 'Offer',
                  name: t.pricing.dayPass.name,
                  price: (CUSTOM_PLAN.dayCents / 100).toFixed(2),
                  priceCurrency: 'EUR',
                },
                {
                  '@type': 'Offer',
                  name: t.pricing.monthly.name,
                  price: (MONTHLY_PLAN.amountCents / 100).toFixed(2),
                  priceCurrency: 'EUR',
                },
              ],
            },
            {
              '@context': 'https://schema.org',
              '@type': 'FAQPage',
              mainEntity: t.faq.items.map((item) => ({
                '@type': 'Question',
                name: item.q,
                acceptedAnswer: { '@type': 'Answer', text: fill(item.a, pctx.values) },
              })),
            },
          ],
        };
        return send(reply, await renderDocument(head, createElement(Home, { ctx: pctx }), o, siteAssets()));
      };
      app.get(path, { config: { public: true }, schema: { hide: true } }, handler);
      if (lang !== 'es') {
        // `/en` → `/en/`, keeping the query.
        app.get(`/${lang}`, { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
          const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
          return reply.redirect(`${path}${query}`, 301);
        });
      }

      // The legal pages.
      for (const id of LEGAL_PAGES) {
        const page = `legal/${id}`;
        app.get(
          localePath(lang, page),
          { config: { public: true }, schema: { hide: true } },
          async (req, reply) => {
            const t = CONTENT[lang];
            const legal = t.legal[id as LegalPageId];
            const o = origin(req);
            const pctx = pageContext(lang, page, true);
            const head: Head = {
              lang,
              title: `${legal.title} · Charla`,
              description: legal.description,
              canonical: o + localePath(lang, page),
              alternates: allLanguages(page),
              jsonLd: [
                {
                  '@context': 'https://schema.org',
                  '@type': 'WebPage',
                  name: legal.title,
                  inLanguage: lang,
                  url: o + localePath(lang, page),
                  isPartOf: { '@type': 'WebSite', name: 'Charla', url: `${o}/` },
                },
              ],
            };
            return send(
              reply,
              await renderDocument(head, createElement(Legal, { ctx: pctx, id, operator }), o, siteAssets()),
            );
          },
        );
      }
    }

    // A bot's page in the directory (or a home-page sample's), in each language.
    for (const lang of SITE_LANGUAGES) {
      app.get<{ Params: { slug: string } }>(
        localePath(lang, 'facebots/:slug'),
        { config: { public: true }, schema: { hide: true } },
        async (req, reply) => {
          const slug = req.params.slug.toLowerCase();
          const o = origin(req);
          const page = `facebots/${slug}`;
          const pctx = pageContext(lang, page, true);
          const t = CONTENT[lang];
          const row = await directory.findBySlug(slug);
          if (row) {
            const bot = listedBot(row);
            const head: Head = {
              lang,
              title: `${bot.name} · Facebots · Charla`,
              description: (bot.description || bot.name).slice(0, 200),
              canonical: o + localePath(lang, page),
              alternates: allLanguages(page),
              jsonLd: [
                {
                  '@context': 'https://schema.org',
                  '@type': 'WebPage',
                  name: bot.name,
                  description: bot.description,
                  url: o + localePath(lang, page),
                  interactionStatistic: [
                    {
                      '@type': 'InteractionCounter',
                      interactionType: 'https://schema.org/LikeAction',
                      userInteractionCount: bot.likes,
                    },
                  ],
                  ...(bot.ialandingSlug ? { relatedLink: `${o}/ialanding/${bot.ialandingSlug}` } : {}),
                },
              ],
            };
            return send(
              reply,
              await renderDocument(head, createElement(BotPage, { ctx: pctx, bot }), o, siteAssets()),
            );
          }
          const sample = t.facebots.bots.find((b) => botSlug(b.name) === slug);
          if (sample) {
            const head: Head = {
              lang,
              title: `${sample.name} · ${t.bot.example} · Charla`,
              description: `${sample.purpose}. ${t.bot.exampleText}`,
              canonical: o + localePath(lang, page),
              alternates: allLanguages(page),
              jsonLd: [
                {
                  '@context': 'https://schema.org',
                  '@type': 'WebPage',
                  name: sample.name,
                  url: o + localePath(lang, page),
                },
              ],
            };
            return send(
              reply,
              await renderDocument(head, createElement(BotPage, { ctx: pctx, sample }), o, siteAssets()),
            );
          }
          // No such bot: the directory, where the visitor can look for it.
          return reply.redirect(localePath(lang, 'facebots'), 302);
        },
      );

      // The directory.
      app.get<{ Querystring: Record<string, string> }>(
        localePath(lang, 'facebots'),
        { config: { public: true }, schema: { hide: true } },
        async (req, reply) => {
          const o = origin(req);
          const parsed = DirectoryQuery.safeParse({
            sort: req.query.sort || undefined,
            category: req.query.category || undefined,
            page: req.query.page || undefined,
          });
          const q = parsed.success ? parsed.data : DirectoryQuery.parse({});
          // The directory's page and its words (the dashboard's seven locale files, 400 KB) are
          // loaded at its first view, not at start-up (issue 25: cold start).
          const [{ Directory, directoryHref }, { directoryTexts }] = await Promise.all([
            import('./pages/Directory.tsx'),
            import('./content/directory.ts'),
          ]);
          const pctx = pageContext(lang, 'facebots', true);
          let view: DirectoryView;
          try {
            const { rows, more } = await directory.list(q);
            view = { sort: q.sort, category: q.category, page: q.page, bots: rows.map(listedBot), more };
          } catch (err) {
            ctx.log.error({ err }, 'the directory could not be read');
            view = { sort: q.sort, category: q.category, page: q.page, bots: null, more: false };
          }
          const t = directoryTexts(lang);
          // The first page of each order and category is one page for search engines.
          const head: Head = {
            lang,
            title: `${t.title} · ${t.subtitle.split(/[:.]/)[0]} · Charla`,
            description: t.subtitle,
            canonical: o + directoryHref(pctx, { sort: q.sort, category: q.category, page: q.page }),
            alternates: allLanguages('facebots'),
            jsonLd: [
              {
                '@context': 'https://schema.org',
                '@type': 'ItemList',
                name: t.title,
                itemListElement: (view.bots ?? []).map((b, i) => ({
                  '@type': 'ListItem',
                  position: (q.page - 1) * PAGE_SIZE + i + 1,
                  url: o + localePath(lang, `facebots/${botSlug(b.name)}`),
                  name: b.name,
                })),
              },
            ],
          };
          return send(
            reply,
            await renderDocument(head, createElement(Directory, { ctx: pctx, view }), o, siteAssets()),
            view.bots === null ? 503 : 200,
          );
        },
      );
    }

    await app.register(seoRoutes({ directory, origin }));
    await app.register(
      chatRoute({ llm: ctx.llm, log: ctx.log, limits: ctx.limits, trialDays: settings.CHARLA_TRIAL_DAYS }),
    );
  };
}

/**
 * Builds the public-site plugin over the Facebots directory (`directory`: facebots/index.ts
 * `directoryService`, handed over by plugins/index.ts; issue 25 §5).
 */
export function createSitePlugin(deps: {
  directory: (db: Kysely<Database>) => DirectoryService;
}): FeaturePlugin {
  return definePlugin({
    id: 'site',
    envSchema: Settings,
    dependencies: ['facebots'],
    setup(ctx) {
      return { routes: { prefix: '', plugin: routes(ctx, deps.directory(ctx.db)) } };
    },
  });
}
