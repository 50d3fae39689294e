/**
 * The embeddable widget's files (issue 6), built into dist/widget: `GET /widget.js` (the loader,
 * cached 5 minutes so a new release reaches sites soon) and `GET /widget/*` (content-hashed chunks,
 * cached for good), for any site (CORS `*`). They carry no Content-Security-Policy: a policy on a
 * script file does nothing, the page that runs it is the embedding site's, under that site's policy;
 * what such a policy must allow for the widget is in docs/security-headers.md (issue 24 §9).
 */
import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { cors } from './shared.ts';

/** Content types of the widget's files. */
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
};

/** True for an existing regular file; false for anything else, a name too long included (ENAMETOOLONG). */
function isFile(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

export function widgetFileRoutes(ctx: () => ChannelContext): FastifyPluginAsync {
  return async (app) => {
    const widgetFile = async (name: string, reply: FastifyReply) => {
      const root = join(ctx().distDir, 'widget');
      const path = normalize(join(root, name));
      // Only a file inside dist/widget: a directory (`/widget/`), a missing file or a path that
      // leaves the folder (`..`, a sibling such as dist/widget-old) is 404 (issue 24 §7).
      if (!path.startsWith(root + sep) || !isFile(path)) return reply.code(404).send({ error: 'not found' });
      cors(reply);
      return reply
        .header(
          'cache-control',
          name === 'widget.js' ? 'public, max-age=300' : 'public, max-age=31536000, immutable',
        )
        .header('x-content-type-options', 'nosniff')
        .type(TYPES[extname(path)] ?? 'application/octet-stream')
        .send(await readFile(path));
    };
    app.get('/widget.js', { config: { public: true }, schema: { hide: true } }, (_req, reply) =>
      widgetFile('widget.js', reply),
    );
    app.get<{ Params: { '*': string } }>(
      '/widget/*',
      { config: { public: true }, schema: { hide: true } },
      (req, reply) => widgetFile(req.params['*'], reply),
    );
  };
}
