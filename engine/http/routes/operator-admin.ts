/**
 * The engine's part of the operator API (issue 26 §6; billing's part, owners, days and coupons, is
 * in plugins/billing/operator-routes.ts):
 * - `GET /api/operator/bots`: every bot with its owner and each connecting channel's health (the
 *   same `ConnectionHealth` the owner's Telegram and WhatsApp panels show);
 * - `GET /api/operator/errors`: the newest channel updates and background jobs that failed for good.
 * Auth: engine/http/operator-guard.ts (the operator token, or an owner with the operator role).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RateLimiter } from '../../rate-limits.ts';
import type { ConnectionHealth, Registry } from '../../registry/index.ts';
import { listChatbots } from '../../store/queries/chatbots.ts';
import { recentFailedJobs, recentFailedUpdates } from '../../store/queries/inbox.ts';
import { requireOwner } from '../auth.ts';
import { operatorGuard } from '../operator-guard.ts';
import type { RouteDeps } from './deps.ts';

/** What the routes read: the engine's route deps, the registry's adapters, PUBLIC_URL and the secret. */
export interface OperatorAdminDeps extends RouteDeps {
  registry: Registry;
  /** The instance secret's derivations (the operator token, engine/operator.ts). */
  secrets: { derive(purpose: string, value: string): string };
  publicUrl: string | undefined;
  limits: Pick<RateLimiter, 'hit'>;
}

/** Most bots the overview lists (newest first). */
export const OPERATOR_BOTS_MAX = 200;
/** Most failed updates and failed jobs listed, each. */
export const OPERATOR_ERRORS_MAX = 30;

const ErrorBody = z.object({ error: z.string() });
const OPERATOR = { public: true as const };
const Health = z.object({
  channel: z.string(),
  mode: z.string(),
  state: z.enum(['connected', 'error', 'paused', 'disconnected']),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  lastUpdateAt: z.string().nullable(),
  pendingUpdates: z.number().nullable(),
});
const iso = (d: Date | string | null | undefined) => (d ? new Date(d).toISOString() : null);

/** The routes (registered by engine/http/server.ts with its `HttpDeps`). */
export const operatorAdminRoutes: FastifyPluginAsyncZod<OperatorAdminDeps> = async (app, deps) => {
  const guard = operatorGuard({
    secrets: deps.secrets,
    db: deps.db,
    requireOwner: (req) => requireOwner(req, deps),
    limits: deps.limits,
    publicUrl: deps.publicUrl,
  });

  app.get(
    '/api/operator/bots',
    {
      config: OPERATOR,
      schema: {
        summary: 'Every bot with its channels’ health (operator)',
        description: `Issue 26 §6: the newest ${OPERATOR_BOTS_MAX} bots, their owner, replies and, for each channel that connects bots (Telegram, WhatsApp), the connection’s health as this node sees it. Operator token or an operator’s session.`,
        tags: ['operator'],
        response: {
          200: z.array(
            z.object({
              id: z.string(),
              name: z.string(),
              owner: z.string(),
              replies: z.number(),
              createdAt: z.string().nullable(),
              channels: z.array(Health),
            }),
          ),
          401: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      await guard(req, reply);
      const bots = (await listChatbots(deps.db)).slice(0, OPERATOR_BOTS_MAX);
      const connecting = [...deps.registry.adapters.values()].filter((a) => a.connections);
      return Promise.all(
        bots.map(async (b) => ({
          id: b.id,
          name: b.business_name,
          owner: b.owner_email,
          replies: Number(b.responses_count),
          createdAt: iso(b.created_at),
          channels: await Promise.all(
            connecting.map(async (a) => {
              const health: ConnectionHealth = await a.connections!.health(b.id).catch((err: unknown) => ({
                mode: '',
                state: 'error' as const,
                lastError: err instanceof Error ? err.message : String(err),
                lastErrorAt: null,
                lastUpdateAt: null,
                pendingUpdates: null,
              }));
              return { channel: a.id, ...health };
            }),
          ),
        })),
      );
    },
  );

  app.get(
    '/api/operator/errors',
    {
      config: OPERATOR,
      schema: {
        summary: 'Recent failures: channel updates and jobs (operator)',
        description: `Issue 26 §6: the newest ${OPERATOR_ERRORS_MAX} channel updates that failed for good (after every retry; \`last_error\` says why) and the newest ${OPERATOR_ERRORS_MAX} background jobs that failed for good. Operator token or an operator’s session.`,
        tags: ['operator'],
        response: {
          200: z.object({
            updates: z.array(
              z.object({
                id: z.string(),
                channel: z.string(),
                chatbotId: z.string(),
                attempts: z.number(),
                error: z.string().nullable(),
                at: z.string().nullable(),
              }),
            ),
            jobs: z.array(
              z.object({
                id: z.string(),
                queue: z.string(),
                error: z.string().nullable(),
                at: z.string().nullable(),
              }),
            ),
          }),
          401: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      await guard(req, reply);
      const [updates, jobs] = await Promise.all([
        recentFailedUpdates(deps.db, OPERATOR_ERRORS_MAX),
        recentFailedJobs(deps.db, OPERATOR_ERRORS_MAX),
      ]);
      return {
        updates: updates.map((u) => ({
          id: String(u.id),
          channel: u.channel,
          chatbotId: u.chatbot_id,
          attempts: u.attempts,
          error: u.last_error,
          at: iso(u.handled_at ?? u.received_at),
        })),
        jobs: jobs.map((j) => ({
          id: j.id,
          queue: j.name,
          error: jobError(j.output),
          at: iso(j.completed_on),
        })),
      };
    },
  );
};

/** pg-boss keeps a failed job's error as `{message, stack}` (or whatever the handler threw). */
function jobError(output: unknown): string | null {
  if (output == null) return null;
  if (typeof output === 'object' && 'message' in output && typeof output.message === 'string')
    return output.message.slice(0, 1000);
  return JSON.stringify(output).slice(0, 1000);
}
