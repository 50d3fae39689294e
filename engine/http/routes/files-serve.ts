/**
 * `GET|HEAD /files/{key}`: the stored bot files, served by Charla from whichever storage holds them
 * (local disk or an S3 bucket, engine/storage), with byte ranges (audio and video seek, PDF viewers
 * fetch pages), `ETag`/`Last-Modified` revalidation and the files' security headers (issue 24 §9:
 * `FILES_CSP` sandbox and `nosniff`).
 *
 * Why Charla proxies the bytes instead of redirecting to presigned S3 URLs (issue 26 §1): the
 * addresses stay the same whatever the backend (`/files/{key}`, already stored in conversations,
 * sent to channels and shown in the widget, and `charla storage migrate` moves files without
 * rewriting them); the responses carry Charla's headers (the CSP sandbox that keeps an uploaded
 * HTML or SVG from running script, CORP, caching) and sit behind the same origin, proxy and
 * policies as the rest of the app; and the bucket stays private: no bucket address, credential
 * scope or expiring signature reaches a browser or a channel.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ByteRange, ObjectInfo, Storage } from '../../storage/index.ts';
import { FILES_CSP } from '../csp.ts';

/** Browsers may reuse a file for an hour before revalidating (what `@fastify/static` sent). */
const CACHE_CONTROL = 'public, max-age=3600';

/**
 * The range a `Range` header asks of an object of `size` bytes: a single `bytes=a-b`, `bytes=a-`
 * or `bytes=-n`. `undefined` when the header is absent, malformed or asks several ranges (the whole
 * object is sent, RFC 9110 §14.2 lets a server ignore it); `unsatisfiable` for a range past the end.
 */
export function parseRange(
  header: string | undefined,
  size: number,
): ByteRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return undefined;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return undefined;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

/** Weak comparison of an `If-None-Match` list with an entity tag (RFC 9110 §13.1.2). */
function etagMatches(header: string, etag: string): boolean {
  const bare = (t: string) => t.trim().replace(/^W\//, '');
  if (header.trim() === '*') return true;
  return header.split(',').some((t) => bare(t) === bare(etag));
}

/** True when the client's copy is current: 304 Not Modified. */
function notModified(req: FastifyRequest, info: ObjectInfo): boolean {
  const inm = req.headers['if-none-match'];
  if (inm) return etagMatches(inm, info.etag);
  const ims = req.headers['if-modified-since'];
  if (!ims) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(info.lastModified.getTime() / 1000) * 1000 <= since;
}

/** `If-Range`: a range applies only while the validator still names this version. */
function rangeStillValid(req: FastifyRequest, info: ObjectInfo): boolean {
  const header = req.headers['if-range'];
  const ifRange = Array.isArray(header) ? header[0] : header;
  if (!ifRange) return true;
  if (ifRange.startsWith('"')) return ifRange === info.etag;
  if (ifRange.startsWith('W/')) return false; // a weak tag never validates a range
  const at = Date.parse(ifRange);
  return Number.isFinite(at) && Math.floor(info.lastModified.getTime() / 1000) * 1000 === at;
}

/** The storage key of a `/files/…` request; null for a folder, a hidden file or an invalid key. */
function keyOf(req: FastifyRequest): string | null {
  const key = (req.params as { '*'?: string })['*'] ?? '';
  if (!key || key.endsWith('/')) return null;
  // Hidden files are never served (what `dotfiles: 'deny'` did), nor `.`/`..` segments.
  if (key.split('/').some((part) => part === '' || part.startsWith('.'))) return null;
  return key;
}

/** Headers every answer about an existing file carries. */
function fileHeaders(reply: FastifyReply, info: ObjectInfo): FastifyReply {
  return reply
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', FILES_CSP)
    .header('cache-control', CACHE_CONTROL)
    .header('accept-ranges', 'bytes')
    .header('etag', info.etag)
    .header('last-modified', info.lastModified.toUTCString());
}

/** Registers `GET` and `HEAD /files/*` on `app`, reading from `storage`. */
export function registerFileServing(app: FastifyInstance, storage: Storage): void {
  app.route({
    method: ['GET', 'HEAD'],
    url: '/files/*',
    schema: { hide: true },
    async handler(req, reply) {
      const key = keyOf(req);
      let info: ObjectInfo | null = null;
      try {
        info = key ? await storage.head(key) : null;
      } catch (err) {
        // An invalid key is a missing file; a storage outage is the server's error.
        if (!(err instanceof Error && err.message.startsWith('invalid storage key'))) throw err;
      }
      if (!key || !info) return reply.callNotFound();
      fileHeaders(reply, info);
      if (notModified(req, info)) return reply.code(304).send();
      const asked = rangeStillValid(req, info) ? parseRange(req.headers.range, info.size) : undefined;
      if (asked === 'unsatisfiable') {
        return reply.code(416).header('content-range', `bytes */${info.size}`).send();
      }
      const length = asked ? asked.end - asked.start + 1 : info.size;
      reply.type(info.contentType).header('content-length', String(length));
      if (asked) reply.code(206).header('content-range', `bytes ${asked.start}-${asked.end}/${info.size}`);
      if (req.method === 'HEAD') return reply.send();
      // Between head and get the object may go away (removed by its owner): 404 then.
      const object = asked ? await storage.get(key, asked) : await storage.get(key);
      if (!object) {
        reply.removeHeader('content-length').removeHeader('content-range');
        return reply.code(404).callNotFound();
      }
      return reply.send(object.stream);
    },
  });
}
