/**
 * The public IALanding page as HTML (issue 16: a phone shows it before any script runs, and a search
 * engine reads it whole). The markup comes from the dashboard's own components, rendered by
 * dist/site/ialanding-ssr.mjs (built from dashboard/src/ialanding-ssr.tsx by scripts/site.mjs); the
 * page then loads the island (dist/site/ialanding-island-<hash>.js) that hydrates it, and the
 * dashboard's stylesheet. The landing and its texts travel in the page as JSON, so the island asks
 * nothing of the server before the visitor writes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { allowInline } from '../../engine/http/csp.ts';
import { FileRecord } from '../../engine/http/views.ts';
import { LANG_CODES } from '../../engine/schemas.ts';
import { html } from './shared.ts';

/**
 * A landing as `GET /api/ialanding/:slug` answers it and the page carries it for its island
 * (dashboard/src/lib/web-chat.ts `Ialanding` mirrors it for the browser).
 */
export const LandingView = z.object({
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
  offline: z.boolean().describe('True while no LLM is configured (answers come from the offline responder).'),
  files: z.array(FileRecord),
});
export type LandingView = z.infer<typeof LandingView>;

/** Why a landing cannot show (the keys of the dictionary's `landing.errors`). */
export type LandingErrorReason = 'notFound' | 'noBot';

/**
 * dist/site/ialanding-ssr.mjs's exports (dashboard/src/ialanding-ssr.tsx `IalandingSsr`, restated
 * here because this side is type-checked without the DOM's types).
 */
interface IalandingSsr {
  renderLanding(landing: LandingView): { html: string; texts: Record<string, unknown>; title: string };
  renderLandingError(reason: LandingErrorReason, lang: string): string;
}

/** The built files a landing page links: the stylesheet(s), the island and its chunks. */
interface Assets {
  /** The dashboard's `<link rel="icon">`, as its index.html has it. */
  icon: string;
  css: string[];
  island: string;
  preload: string[];
}

const loaded = new Map<string, Promise<{ ssr: IalandingSsr; assets: Assets }>>();

/**
 * The server render and the built asset names under `distDir`, loaded once per process.
 * @throws Error when the dashboard or the site script is not built (`npm run build`).
 */
function load(distDir: string): Promise<{ ssr: IalandingSsr; assets: Assets }> {
  let done = loaded.get(distDir);
  if (!done) {
    done = (async () => {
      const index = readFileSync(join(distDir, 'dashboard', 'index.html'), 'utf8');
      const css = [...index.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
      const manifest = JSON.parse(readFileSync(join(distDir, 'site', 'manifest.json'), 'utf8')) as {
        ialanding: { file: string; imports: string[] };
      };
      const ssr = (await import(
        pathToFileURL(join(distDir, 'site', 'ialanding-ssr.mjs')).href
      )) as IalandingSsr;
      return {
        ssr,
        assets: {
          icon: index.match(/<link rel="icon" href="[^"]*"\s*\/?>/)?.[0] ?? '',
          css,
          island: `/site/${manifest.ialanding.file}`,
          preload: manifest.ialanding.imports.map((f) => `/site/${f}`),
        },
      };
    })();
    done.catch(() => loaded.delete(distDir));
    loaded.set(distDir, done);
  }
  return done;
}

/**
 * Keeps the last button tapped before the page is live in `window.__charlaEarlyTap` (the island reads
 * it, dashboard/src/ialanding-island.tsx). Inline, so it runs before the first paint; its hash is in
 * the page's Content-Security-Policy (engine/http/csp.ts `allowInline`, issue 24 §9).
 */
export const EARLY_TAPS = allowInline(
  'script',
  "addEventListener('click',function(e){var b=e.target instanceof Element&&e.target.closest('button');" +
    "if(b&&!document.querySelector('[data-ready]'))window.__charlaEarlyTap=b},true)",
);

/** JSON safe inside a `<script>` element (no `</script>`, no HTML comment openers). */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The document around a body: head tags first, then the dashboard's stylesheet. */
function documentOf(opts: { lang: string; head: string[]; assets: Assets; body: string }): string {
  return `<!doctype html>
<html lang="${html(opts.lang)}">
  <head>
    <meta charset="UTF-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="theme-color" content="#0f766e">
    ${opts.head.join('\n    ')}
    ${opts.assets.icon}
    ${opts.assets.css.map((href) => `<link rel="stylesheet" href="${html(href)}">`).join('\n    ')}
  </head>
  <body class="bg-slate-50 text-slate-900 antialiased">
    ${opts.body}
  </body>
</html>
`;
}

/**
 * A landing's page: its head tags (`head`: title, description, Open Graph, canonical; the caller's),
 * the server-rendered landing in `#root`, its data for the island, and the island's script.
 * @param head the page's own `<meta>`/`<link>` tags, already escaped; the title is added here.
 */
export async function landingPage(distDir: string, landing: LandingView, head: string[]): Promise<string> {
  const { ssr, assets } = await load(distDir);
  const { html: markup, texts, title } = ssr.renderLanding(landing);
  return documentOf({
    lang: landing.lang,
    assets,
    head: [
      `<title>${html(title)}</title>`,
      ...head,
      // A button tapped before the island is live (a library card's "Ver →" on a slow phone) is
      // remembered, and the island taps it again once it has hydrated the page.
      `<script>${EARLY_TAPS}</script>`,
      ...assets.preload.map((href) => `<link rel="modulepreload" href="${html(href)}">`),
      `<script type="module" src="${html(assets.island)}"></script>`,
    ],
    body: `<div id="root">${markup}</div>
    <script type="application/json" id="ialanding-data">${scriptJson({ landing, texts })}</script>`,
  });
}

/**
 * The page of a landing that cannot show (spec 001 §8 texts: "IALanding no encontrada", "No se
 * encontró la configuración del bot para este IALanding."), in `lang`, with `noindex`; no script.
 */
export async function landingErrorPage(
  distDir: string,
  reason: LandingErrorReason,
  title: string,
  lang = 'es',
): Promise<string> {
  const { ssr, assets } = await load(distDir);
  return documentOf({
    lang,
    assets,
    head: [`<title>${html(title)} · Charla</title>`, '<meta name="robots" content="noindex">'],
    body: `<div id="root">${ssr.renderLandingError(reason, lang)}</div>`,
  });
}
