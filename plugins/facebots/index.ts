/**
 * The Facebots directory (spec 001 §1, §2 Public directory, §4 Like, §5, §7, §8; issue 16 §4):
 * public bots with a live channel, sorted and filtered, paged; likes counted once per visitor on the
 * server and rate-limited per address. Through the registry: its own table and public routes.
 *
 * - `GET  /api/facebots?sort=&category=&page=`: a page of the directory;
 * - `POST /api/facebots/:id/like` `{visitorId}`: one like per visitor and bot;
 * - `GET|POST /api/facebots/publish/:chatbotId`: the owner publishes or unpublishes a bot (publish.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { AppError } from '../../engine/errors.ts';
import { publicDescription } from '../../engine/ranking/index.ts';
import { addressKey, admit, LIMITS } from '../../engine/rate-limits.ts';
import { definePlugin, type FeaturePlugin, type LimitsPort } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import type { Database } from '../../engine/store/database.ts';
import {
  DirectoryAnswer,
  DirectoryQuery,
  type DirectoryService,
  LikeAnswer,
  LikeBody,
  PAGE_SIZE,
} from './api.ts';
import { migrations } from './migrations.ts';
import { publishRoutes } from './publish.ts';
import { type FacebotsDb, facebotsDb, findListedBySlug, isListed, like, listDirectory } from './queries.ts';

const ErrorBody = z.object({ error: z.string() });

function routes(db: FacebotsDb, limits: LimitsPort): FastifyPluginAsync {
  return async (app) => {
    app.get(
      '/api/facebots',
      {
        config: { public: true },
        schema: {
          summary: 'The public directory of active bots',
          description:
            `Spec 001 §2, §5, §7; issue 16 §4. Bots with \`is_public\` and a live channel (a connected Telegram bot, or an ` +
            `active IALanding with the web service on), ${PAGE_SIZE} a page. \`sort\`: populares (responses, then likes), ` +
            'recientes, antiguos, relevantes (likes, then responses); `category` filters by the spec’s categories.',
          tags: ['facebots'],
          querystring: DirectoryQuery,
          response: { 200: DirectoryAnswer },
        },
      },
      async (req) => {
        const q = DirectoryQuery.parse(req.query);
        const { rows, more } = await listDirectory(db, q);
        return {
          page: q.page,
          more,
          bots: rows.map((r) => ({
            id: r.id,
            business_name: r.business_name,
            category: r.category,
            description: publicDescription(
              {
                public_description: r.public_description ?? '',
                business_description: r.business_description,
              },
              languageCode(r.idioma),
            ).slice(0, 280),
            telegram_username: r.telegram_username?.replace(/^@/, '') ?? null,
            responses_count: Number(r.responses_count),
            likes_count: Number(r.likes_count),
            ialanding_slug: r.ialanding_slug ?? null,
            created_at: new Date(r.created_at).toISOString(),
          })),
        };
      },
    );

    app.post<{ Params: { id: string }; Body: z.infer<typeof LikeBody> }>(
      '/api/facebots/:id/like',
      {
        config: { public: true },
        preHandler: async (req, reply) => {
          if (!(await admit(limits, reply, [{ limit: 'likeAddress', key: addressKey(req.ip) }]))) {
            return reply.code(429).send({ error: 'Demasiados “me gusta” seguidos. Espera un momento.' });
          }
        },
        schema: {
          summary: 'Likes a bot of the directory',
          description:
            'Spec 001 §4 Like; issue 16 §4: once per visitor (`visitorId`, kept by the browser) and bot; a repeated like ' +
            `answers the same count with \`counted: false\`. 404 for a bot that is not listed; 429 past ` +
            `${LIMITS.likeAddress.max} likes a minute from one address (default; \`${LIMITS.likeAddress.env}\`).`,
          tags: ['facebots'],
          params: z.object({ id: z.string().min(1).max(100) }),
          body: LikeBody,
          response: { 200: LikeAnswer, 404: ErrorBody, 429: ErrorBody },
        },
      },
      async (req) => {
        if (!(await isListed(db, req.params.id))) throw new AppError('NOT_FOUND', 'Bot no encontrado');
        return like(db, req.params.id, req.body.visitorId);
      },
    );
  };
}

/**
 * The directory as a service over a database (api.ts {@link DirectoryService}), for the plugins that
 * show it (the site); plugins/index.ts hands it to them.
 */
export function directoryService(db: Kysely<Database>): DirectoryService {
  const fdb = facebotsDb(db);
  return {
    list: (q) => listDirectory(fdb, q),
    findBySlug: (slug) => findListedBySlug(fdb, slug),
  };
}

/** Builds the Facebots plugin. */
export function createFacebotsPlugin(): FeaturePlugin {
  return definePlugin({
    id: 'facebots',
    migrations,
    setup(ctx) {
      const db = facebotsDb(ctx.db);
      return {
        routes: {
          prefix: '',
          plugin: async (app) => {
            await app.register(routes(db, ctx.limits));
            await app.register(publishRoutes(db, ctx));
          },
        },
      };
    },
  });
}

/** The registered Facebots plugin (plugins/index.ts). */
export const facebots = createFacebotsPlugin();
