/**
 * Sends a server-rendered HTML page (the public site's pages, the IALanding): `no-cache` (the page
 * shows live data: prices, likes, availability), `content-language` from the page's `<html lang>`,
 * the page's Content-Security-Policy (engine/http/csp.ts `pageCsp`, issue 24 §9), and gzip when the
 * browser takes it (a 33 KB home page is about 9 KB on the wire, issue 16). A reverse proxy in front
 * may compress too, which is harmless.
 */
import { gzipSync } from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { pageCsp } from './csp.ts';

/**
 * @param reply the route's reply.
 * @param html the whole document; its inline `<script>` and `<style>` texts must have been allowed
 *   with `allowInline` (engine/http/csp.ts), or the browser refuses them.
 * @param status the HTTP status (200, or 404/503 for the error pages).
 * @param csp the Content-Security-Policy header; {@link pageCsp} unless the page needs another.
 */
export function sendHtml(reply: FastifyReply, html: string, status = 200, csp = pageCsp()): FastifyReply {
  reply
    .code(status)
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-encoding')
    .header('content-language', html.match(/<html lang="([^"]+)"/)?.[1] ?? 'es')
    .header('content-security-policy', csp)
    .type('text/html; charset=utf-8');
  if (/\bgzip\b/.test(String(reply.request.headers['accept-encoding'] ?? '')))
    return reply.header('content-encoding', 'gzip').send(gzipSync(html));
  return reply.send(html);
}
