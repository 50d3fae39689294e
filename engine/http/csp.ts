/**
 * Content-Security-Policy headers for every kind of page Charla serves (issue 24 §9). A policy keeps
 * a script that got into a page some other way (an escaping bug, a stored file opened as a page)
 * from running with Charla's origin: only the app's own script files run, inline code runs only
 * when its SHA-256 is in the policy, `<base>` hijacks and framing by other sites are off.
 *
 * - Server-rendered pages ({@link pageCsp}: the public site, the IALanding) carry only constant
 *   inline code (the IALanding's early-tap recorder, the site's CSS), so they allow it by hash
 *   ({@link allowInline}), not by a per-response nonce: a hash lets through nothing but that exact
 *   text, while a nonce the server writes into each page would also bless any markup injected next to
 *   it. Data blocks (`<script type="application/json">`, JSON-LD) are never run and need nothing.
 * - The dashboard ({@link DASHBOARD_CSP}): Vite's index.html has no inline script, so `'self'`
 *   suffices; it loads Meta's SDK for the WhatsApp Cloud sign-up.
 * - The OpenAPI page ({@link API_DOCS_CSP}): @fastify/swagger-ui's policy, fit for plain http.
 * - Stored files ({@link FILES_CSP}): `sandbox`, so an uploaded HTML or SVG opened in a tab runs no
 *   script.
 * - The widget's files carry no policy (a policy on a script file does nothing); what a site with its
 *   own CSP must allow for it is {@link widgetHostSources}, documented in docs/security-headers.md.
 *
 * Style attributes: React on the client sets styles through the CSSOM (`element.style`), which CSP
 * does not govern, and the server-rendered pages print no `style="…"` attribute, so no policy here
 * needs `'unsafe-inline'` for styles. `upgrade-insecure-requests` is left out on purpose: Charla runs
 * on plain http on a LAN or localhost, where it would send every request to an https port that is not
 * there.
 */
import { createHash } from 'node:crypto';

/** The directives Charla's policies use (CSP Level 3 names). */
export type CspDirective =
  | 'default-src'
  | 'script-src'
  | 'script-src-attr'
  | 'style-src'
  | 'img-src'
  | 'media-src'
  | 'font-src'
  | 'connect-src'
  | 'frame-src'
  | 'object-src'
  | 'base-uri'
  | 'form-action'
  | 'frame-ancestors'
  | 'sandbox';

/** A policy as directive → sources (an empty list prints the bare directive, e.g. `sandbox`). */
export type CspDirectives = Partial<Record<CspDirective, readonly string[]>>;

/**
 * The header value of a policy: `name source source; name …`, in the object's order.
 * @example serializeCsp({ 'default-src': ["'self'"], sandbox: [] }) === "default-src 'self'; sandbox"
 */
export function serializeCsp(directives: CspDirectives): string {
  return Object.entries(directives)
    .map(([name, sources]) => [name, ...(sources ?? [])].join(' '))
    .join('; ');
}

/**
 * The CSP hash source of an inline script's or style's text, `'sha256-<base64>'`: the digest of the
 * element's text exactly as it stands between its tags, as UTF-8 (CSP Level 3, hash-source).
 */
export function hashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The hashes of the inline code server-rendered pages may carry, by kind (see {@link allowInline}). */
const inline = { script: new Set<string>(), style: new Set<string>() };

/** More inline texts than any page has: a caller passing changing text would grow the set forever. */
const MAX_INLINE = 32;

/**
 * Lets one constant inline `<script>` or `<style>` text run on Charla's server-rendered pages: its
 * hash goes into every {@link pageCsp}. The renderer that prints the element calls this (once, with
 * the same text it prints), so the policy and the page cannot drift apart; no route has to pass it.
 * @returns the text, for printing.
 * @throws Error when more than 32 different texts were allowed (the text is not constant).
 */
export function allowInline(kind: 'script' | 'style', text: string): string {
  const set = inline[kind];
  set.add(hashSource(text));
  if (set.size > MAX_INLINE) throw new Error(`allowInline: more than ${MAX_INLINE} inline ${kind}s`);
  return text;
}

/** Directives every HTML policy of Charla shares. */
const BASE = {
  'default-src': ["'self'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
} as const satisfies CspDirectives;

/**
 * Where an owner's files may come from: Charla's own `/files/` and, as spec 000 §3 allows for
 * `file_url`, any http(s) address; `data:` for spoken replies (`data:audio/ogg;base64,…`) and the
 * favicon, `blob:` for a recording played back before it is sent.
 */
const OWNER_MEDIA = ["'self'", 'data:', 'blob:', 'https:', 'http:'] as const;

/**
 * Where an `<object>` may load from: an owner's PDF, which the IALanding and the app's chats show
 * embedded (dashboard/src/components/WebChatCore.tsx `FileView`), from Charla or another http(s)
 * address as {@link OWNER_MEDIA}. Chromium checks such an object against both `object-src` and
 * `frame-src` (its PDF viewer is a frame inside the object), so both directives list these sources;
 * with `object-src 'none'` or `frame-src 'none'` the PDF is refused (tested in Chromium 156).
 * `object-src 'none'`, the usual advice, dates from plugins (Flash, Java) that could script the page
 * that embedded them; browsers have none left, and an embedded file from `/files/` runs in its own
 * sandbox ({@link FILES_CSP}).
 */
const OWNER_OBJECTS = ["'self'", 'https:', 'http:'] as const;

/**
 * The policy of a server-rendered page (`sendHtml`: the public site's pages, the IALanding): scripts
 * from Charla only, plus the inline texts allowed with {@link allowInline}; styles likewise (the
 * site's inlined CSS; the IALanding links the dashboard's stylesheet); fetches to Charla only (the
 * assistant, the chat, likes); images and media as {@link OWNER_MEDIA}, PDFs as
 * {@link OWNER_OBJECTS}. Framed only by Charla's own pages, which is what the `X-Frame-Options:
 * SAMEORIGIN` helmet sends already said: the pages have nothing a visitor needs inside another
 * site's frame (the widget is for that), and a frame is a clickjacking surface.
 */
export function pageCsp(): string {
  return serializeCsp({
    ...BASE,
    'script-src': ["'self'", ...inline.script],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", ...inline.style],
    'img-src': OWNER_MEDIA,
    'media-src': OWNER_MEDIA,
    'object-src': OWNER_OBJECTS,
    'frame-src': OWNER_OBJECTS,
    'connect-src': ["'self'"],
    'frame-ancestors': ["'self'"],
  });
}

/**
 * Meta's hosts the dashboard needs for the WhatsApp Cloud sign-up (dashboard WhatsAppModals.tsx
 * loads `https://connect.facebook.net/es_ES/sdk.js`; `FB.login` talks to facebook.com and the Graph
 * API). The SDK's frames and images (facebook.com) are already allowed by the `https:` of
 * {@link OWNER_OBJECTS} and {@link OWNER_MEDIA}. Meta's real SDK cannot be tried here (no network);
 * test/browser-whatsapp.test.ts serves a fake one at that address, under this policy.
 */
const META_SDK = {
  script: ['https://connect.facebook.net'],
  connect: ['https://graph.facebook.com', 'https://www.facebook.com', 'https://connect.facebook.net'],
} as const;

/**
 * The policy of the dashboard's index.html (served by @fastify/static and by the history fallback in
 * engine/http/server.ts). The page is static and has no inline script (Vite links its modules and
 * preloads), so `script-src 'self'` with Meta's SDK host; its stylesheets are files (sonner's toast
 * CSS too, moved into them by dashboard/vite.config.ts). Never framed (`'none'`): the dashboard is
 * where an owner clicks buttons that change things, the thing clickjacking is after.
 */
export const DASHBOARD_CSP = serializeCsp({
  ...BASE,
  'script-src': ["'self'", ...META_SDK.script],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'"],
  'img-src': OWNER_MEDIA,
  'media-src': OWNER_MEDIA,
  'object-src': OWNER_OBJECTS,
  'connect-src': ["'self'", ...META_SDK.connect],
  'frame-src': OWNER_OBJECTS,
  'frame-ancestors': ["'none'"],
});

/**
 * The policy of every stored file under `/files/` (owner uploads: PDF, images, audio, video; spoken
 * replies). `sandbox` turns scripts, forms, popups and plugins off in a file opened as a page, so an
 * uploaded HTML or SVG that slipped past the upload checks (engine/files.ts) cannot run script in
 * Charla's origin (read the owner's session, call the API); with `X-Content-Type-Options: nosniff` a
 * file is never read as another type than its extension says. `default-src 'none'` keeps such a page
 * from loading anything else.
 *
 * What opens in a tab, tested in Chromium 156 (test/browser-csp.test.ts): images and PDFs show under
 * a bare `sandbox` (the PDF viewer too), but audio and video do not: the sandboxed document's origin
 * is opaque, and the player's request for the same file becomes a cross-origin one that `/files/`
 * answers without CORS headers, so it is refused. `allow-same-origin` keeps the file's own origin
 * and is safe here because `allow-scripts` is absent: with no script the document can read nothing
 * (the dangerous pair is the two tokens together, where a script can lift its own sandbox). The
 * browser's image document sets inline styles of its own, hence `style-src 'unsafe-inline'` (no
 * script can use it). Where a file is a subresource (`<img>`, `<audio>`, `<video>` of the IALanding,
 * the dashboard or the widget) the policy of the file plays no part.
 */
export const FILES_CSP = serializeCsp({
  sandbox: ['allow-same-origin'],
  'default-src': ["'none'"],
  'img-src': ["'self'"],
  'media-src': ["'self'"],
  'style-src': ["'unsafe-inline'"],
});

/**
 * The policy of the OpenAPI page (`/api/docs`, @fastify/swagger-ui's `staticCSP`): the plugin's own
 * default without its `upgrade-insecure-requests`, which sends every request of the page to https
 * and so broke the page on a plain-http Charla reached by any name but localhost (a LAN address;
 * tested in Chromium 156: every script and stylesheet failed with ERR_SSL_PROTOCOL_ERROR). Swagger UI
 * adds a `<style>` element of its own at run time, so styles allow `'unsafe-inline'`: the page shows
 * only the API's own description, never a visitor's or an owner's text, so there is nothing to inject
 * styles with; scripts stay `'self'` only. Never framed.
 */
export const API_DOCS_CSP = serializeCsp({
  ...BASE,
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'", 'data:'],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
});

/**
 * What a website with its own Content-Security-Policy must allow so Charla's widget works on it,
 * for the Charla host `host` (e.g. `https://charla.example.com`): the loader and the chat chunk it
 * imports (script-src), the bot's configuration and the chat's requests (connect-src), files the
 * bot sends (img-src, media-src; plus `https:` where files live elsewhere), and spoken replies
 * (`data:` audio). The widget's styles are constructed style sheets, which a page's `style-src` does
 * not govern. The snippet itself is an inline script: such a site adds its nonce to it, or uses the
 * two-tag form (docs/security-headers.md).
 */
export function widgetHostSources(
  host: string,
): Record<'script-src' | 'connect-src' | 'img-src' | 'media-src', string[]> {
  const origin = new URL(host).origin;
  return {
    'script-src': [origin],
    'connect-src': [origin],
    'img-src': [origin],
    'media-src': [origin, 'data:'],
  };
}
