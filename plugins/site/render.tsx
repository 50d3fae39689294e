/**
 * Server rendering of the public pages (issue 16 §2): React renders each page to HTML on the
 * server with its title, description, `hreflang` alternates, canonical URL, Open Graph tags and
 * JSON-LD, so a search engine or a phone without JavaScript gets the whole page. The CSS is inlined
 * (no render-blocking request); the only script is the small site script (dist/site), which loads
 * the assistant's React island on the first click.
 */
import type { ReactElement } from 'react';
import { CONTENT, localePath, SITE_LANGUAGES, type SiteLanguage } from './content/index.ts';

/** What a page's `<head>` says. */
export interface Head {
  lang: SiteLanguage;
  title: string;
  description: string;
  /** Absolute URL of this page. */
  canonical: string;
  /** The page's path in each language (home, legal), or none for a page with one address. */
  alternates?: Partial<Record<SiteLanguage, string>> | undefined;
  /** Absolute URL of the preview image. */
  image?: string | undefined;
  /** Schema.org objects, each printed as one JSON-LD script. */
  jsonLd: object[];
}

/** Escapes text for an HTML attribute or text node. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** JSON for a `<script>` element: `<` escaped so no `</script>` can end it early. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/** The `<head>` tags (title, description, canonical, hreflang, Open Graph, JSON-LD). */
export function headTags(head: Head, origin: string): string {
  const alternates = head.alternates
    ? [
        ...Object.entries(head.alternates).map(
          ([lang, path]) => `<link rel="alternate" hreflang="${lang}" href="${escapeHtml(origin + path)}">`,
        ),
        ...(head.alternates.es
          ? [`<link rel="alternate" hreflang="x-default" href="${escapeHtml(origin + head.alternates.es)}">`]
          : []),
      ]
    : [`<link rel="alternate" hreflang="x-default" href="${escapeHtml(head.canonical)}">`];
  const locale = CONTENT[head.lang].locale;
  return [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}">`,
    `<link rel="canonical" href="${escapeHtml(head.canonical)}">`,
    ...alternates,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="Charla">`,
    `<meta property="og:title" content="${escapeHtml(head.title)}">`,
    `<meta property="og:description" content="${escapeHtml(head.description)}">`,
    `<meta property="og:url" content="${escapeHtml(head.canonical)}">`,
    `<meta property="og:locale" content="${locale}">`,
    ...(head.alternates
      ? Object.keys(head.alternates)
          .filter((l) => l !== head.lang)
          .map((l) => `<meta property="og:locale:alternate" content="${CONTENT[l as SiteLanguage].locale}">`)
      : []),
    ...(head.image ? [`<meta property="og:image" content="${escapeHtml(head.image)}">`] : []),
    `<meta name="twitter:card" content="${head.image ? 'summary_large_image' : 'summary'}">`,
    ...head.jsonLd.map((o) => `<script type="application/ld+json">${scriptJson(o)}</script>`),
  ].join('\n');
}

/** The assets a page links: the inlined CSS and the site script's address. */
export interface SiteAssets {
  css: string;
  /** `/site/site-<hash>.js`, or undefined when the site script is not built. */
  script: string | undefined;
}

/**
 * React's server renderer, loaded once. react-dom/server is CommonJS: bundled by esbuild, `import()`
 * gives only its `default` (module.exports); from the sources, Node also lists the named exports.
 */
async function reactDomServer(): Promise<typeof import('react-dom/server')> {
  const loaded = (await import('react-dom/server')) as typeof import('react-dom/server') & {
    default?: typeof import('react-dom/server');
  };
  return loaded.default ?? loaded;
}

/**
 * A whole HTML document for a page. React's server renderer (600 KB of the start-up bundle) is
 * loaded at the first page, not at start-up (issue 25: cold start).
 */
export async function renderDocument(
  head: Head,
  body: ReactElement,
  origin: string,
  assets: SiteAssets,
): Promise<string> {
  const { renderToStaticMarkup } = await reactDomServer();
  const html = renderToStaticMarkup(body);
  return `<!doctype html>
<html lang="${head.lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="theme-color" content="#0f766e">
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${headTags(head, origin)}
<style>${assets.css}</style>
${assets.script ? `<script type="module" src="${assets.script}"></script>` : ''}
</head>
<body>
${html}
</body>
</html>`;
}

/** Each language's path of a page that exists in every language. */
export function allLanguages(page: string): Record<SiteLanguage, string> {
  return Object.fromEntries(SITE_LANGUAGES.map((l) => [l, localePath(l, page)])) as Record<
    SiteLanguage,
    string
  >;
}
