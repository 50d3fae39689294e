/**
 * What search engines read besides the pages (issue 16 §2): `GET /sitemap.xml` (every public page in
 * every language with its `hreflang` alternates, the demo IALanding, the home's sample bots, and each
 * listed bot's page and IALanding), `GET /robots.txt` (the owner's screens and the API kept out) and
 * `GET /favicon.svg`.
 */
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import type { DirectoryService } from '../facebots/api.ts';
import { botSlug, CONTENT, LEGAL_PAGES, SITE_LANGUAGES } from './content/index.ts';
import { DEMO_IALANDING } from './pages/Home.tsx';
import { allLanguages, escapeHtml } from './render.tsx';

/** The Logo as the favicon. */
const FAVICON =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#0f766e"/><path d="M8 10h16v9H14l-5 4v-4H8z" fill="#fff"/></svg>';

/** The routes, over the Facebots directory service and the site's public origin for a request. */
export function seoRoutes(opts: {
  directory: DirectoryService;
  origin: (req: FastifyRequest) => string;
}): FastifyPluginAsync {
  const { directory, origin } = opts;
  return async (app) => {
    app.get('/sitemap.xml', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      const o = origin(req);
      const pages = ['', 'facebots', ...LEGAL_PAGES.map((id) => `legal/${id}`)];
      const urls: string[] = [];
      for (const page of pages) {
        const alternates = allLanguages(page);
        for (const lang of SITE_LANGUAGES) {
          urls.push(
            `<url><loc>${escapeHtml(o + alternates[lang])}</loc>${SITE_LANGUAGES.map(
              (l) => `<xhtml:link rel="alternate" hreflang="${l}" href="${escapeHtml(o + alternates[l])}"/>`,
            ).join('')}</url>`,
          );
        }
      }
      urls.push(`<url><loc>${o}${DEMO_IALANDING}</loc></url>`);
      for (const bot of CONTENT.es.facebots.bots)
        urls.push(`<url><loc>${o}/facebots/${botSlug(bot.name)}</loc></url>`);
      for (let p = 1; p <= 40; p++) {
        const { rows, more } = await directory.list({ sort: 'antiguos', page: p });
        for (const r of rows) {
          urls.push(`<url><loc>${escapeHtml(`${o}/facebots/${botSlug(r.business_name)}`)}</loc></url>`);
          if (r.ialanding_slug)
            urls.push(`<url><loc>${escapeHtml(`${o}/ialanding/${r.ialanding_slug}`)}</loc></url>`);
        }
        if (!more) break;
      }
      return reply
        .type('application/xml; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${[...new Set(urls)].join('\n')}\n</urlset>\n`,
        );
    });

    app.get('/robots.txt', { config: { public: true }, schema: { hide: true } }, async (req, reply) => {
      // The owner's screens and the API are not for search engines; the public pages are.
      const disallow = [
        '/api/',
        '/main',
        '/configure',
        '/gestion',
        '/usuarios-conversaciones',
        '/charla-web',
        '/login',
        '/register',
        '/reset-password',
        '/update-password',
        '/auth/',
        '/files/',
      ];
      return reply
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'public, max-age=3600')
        .send(
          `User-agent: *\n${disallow.map((d) => `Disallow: ${d}`).join('\n')}\nAllow: /\n\nSitemap: ${origin(req)}/sitemap.xml\n`,
        );
    });

    app.get('/favicon.svg', { config: { public: true }, schema: { hide: true } }, async (_req, reply) =>
      reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
    );
  };
}
