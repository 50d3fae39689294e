/**
 * Cross-site request refusal for owner routes (issue 24 §5). Owners' sessions ride in a SameSite=Lax
 * cookie, which a browser still sends with a form posted from a sibling subdomain or another port
 * of the same host ("same-site"), so a page there could act as the owner (a broadcast was sent that
 * way). A state-changing request (not GET, HEAD or OPTIONS) to an owner route or to better-auth's
 * `/api/auth/*` is refused when the browser says it comes from elsewhere:
 *
 * - its `Origin` is present and is neither `PUBLIC_URL`'s origin (with its localhost / 127.0.0.1
 *   alias) nor the host the request was sent to (a page served from a LAN address or a second
 *   name: its own origin);
 * - or, without `Origin`, its `Sec-Fetch-Site` is `cross-site` or `same-site`.
 *
 * Requests with neither header (curl, the CLI) and requests that carry `Authorization: Bearer`
 * without a cookie (scripts, even in a browser) are not requests a page on another site can forge,
 * and pass. Webhooks and the public chat routes are not owner routes and are
 * exempt by design (their callers are other sites). The same rule as Go's
 * net/http.CrossOriginProtection and the Fetch Metadata guidance (https://web.dev/articles/fetch-metadata).
 */
import type { FastifyRequest } from 'fastify';

/** Methods that change nothing and are never refused. */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The text of the 403 (Spanish, the interface's default). */
export const CROSS_SITE_REFUSED = 'Solicitud rechazada: no viene de esta aplicación.';

/** The origins owner pages are served from: PUBLIC_URL's, and its loopback alias. */
export function appOrigins(publicUrl: string | undefined): Set<string> {
  const out = new Set<string>();
  if (!publicUrl) return out;
  const url = new URL(publicUrl);
  out.add(url.origin);
  for (const [a, b] of [
    ['127.0.0.1', 'localhost'],
    ['localhost', '127.0.0.1'],
  ] as const)
    if (url.hostname === a) out.add(`${url.protocol}//${b}${url.port ? `:${url.port}` : ''}`);
  return out;
}

/**
 * True when a state-changing request comes from another site than the app (see the module's rule).
 * @param origins the app's origins ({@link appOrigins}); empty when PUBLIC_URL is unset.
 */
export function isCrossSiteRequest(req: FastifyRequest, origins: ReadonlySet<string>): boolean {
  if (SAFE_METHODS.has(req.method)) return false;
  // A bearer token without a cookie: no page on another site can make a browser send that header.
  if (!req.headers.cookie && /^bearer\s/i.test(req.headers.authorization ?? '')) return false;
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    if (origin === 'null') return true;
    if (origins.has(origin)) return false;
    // The page's own host (a LAN address or a second name beside PUBLIC_URL): same origin.
    try {
      return new URL(origin).host !== req.host;
    } catch {
      return true;
    }
  }
  const site = req.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}
