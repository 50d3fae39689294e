/**
 * Pieces cli/app.ts composes the app from: the LLM client the configuration asks for (timed for
 * the metrics), the stored-file accessors the channels and plugins get, the sign-in origins of a
 * local address, what the operations routes read, and a graceful close of the HTTP server.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Auth } from '../engine/auth/index.ts';
import type { CharlaConfig } from '../engine/config.ts';
import type { BotCache } from '../engine/conversation/cache.ts';
import { createOpenAiClient, type LlmClient, observedLlm } from '../engine/conversation/llm.ts';
import { botNotFound } from '../engine/errors.ts';
import { requireOwner } from '../engine/http/auth.ts';
import type { HttpDeps } from '../engine/http/server.ts';
import type { JobQueue } from '../engine/jobs/index.ts';
import type { Logger } from '../engine/logger.ts';
import type { Metrics } from '../engine/metrics.ts';
import type { Registry, RuntimeContext } from '../engine/registry/index.ts';
import { MissingFileError, type Storage } from '../engine/storage/index.ts';
import type { Store } from '../engine/store/connect.ts';
import type { Database } from '../engine/store/database.ts';
import { migrationsCurrent } from '../engine/store/migrate.ts';
import { findOwnedChatbot } from '../engine/store/queries/chatbots.ts';

/**
 * The LLM: the one a test gives (`given`, null for offline), else an OpenAI-compatible client when
 * configured, else null (the offline responder). Each completion's time goes to `metrics`.
 */
export function llmOf(
  config: CharlaConfig,
  given: LlmClient | null | undefined,
  metrics: Metrics,
): LlmClient | null {
  const llm =
    given !== undefined
      ? given
      : config.llm.enabled
        ? createOpenAiClient({
            baseURL: config.llm.baseURL,
            apiKey: config.llm.apiKey,
            model: config.llm.model,
            timeoutMs: config.llm.timeoutMs,
            maxRetries: config.llm.maxRetries,
          })
        : null;
  return llm && observedLlm(llm, (outcome, ms) => metrics.llmDuration.observe({ outcome }, ms / 1000));
}

/**
 * A stored file by its `file_url`: `filePath` (a local path, local storage only; null for an http
 * address or S3) and `openFile` (a stream from either backend; null for an http address).
 * @throws MissingFileError from `openFile` when the key is not stored (a permanent send error).
 */
export function storedFiles(storage: Storage) {
  const isAddress = (fileUrl: string) => /^https?:\/\//.test(fileUrl);
  return {
    filePath: (fileUrl: string) =>
      isAddress(fileUrl) || !storage.localPath ? null : storage.localPath(fileUrl),
    async openFile(fileUrl: string) {
      if (isAddress(fileUrl)) return null;
      const opened = await storage.get(fileUrl);
      if (!opened) throw new MissingFileError(fileUrl);
      return opened;
    },
  };
}

/** A local address also reached as localhost or 127.0.0.1 (so signing in works from either). */
export function localAliases(url: string | undefined): string[] | undefined {
  if (!url) return undefined;
  const u = new URL(url);
  if (u.hostname !== '127.0.0.1' && u.hostname !== 'localhost') return undefined;
  return ['127.0.0.1', 'localhost'].map((h) => `${u.protocol}//${h}${u.port ? `:${u.port}` : ''}`);
}

/**
 * What /readyz and /metrics read (engine/http/routes/ops.ts): every migration applied (one query),
 * the storage answering (a HEAD of a key that need not exist), and the job worker running.
 */
export function opsOf(parts: {
  config: CharlaConfig;
  store: Store;
  registry: Registry;
  storage: Storage;
  metrics: Metrics;
  jobsRunning: () => boolean;
}): HttpDeps['ops'] {
  const { config, store, registry, storage, metrics } = parts;
  return {
    metrics,
    metricsToken: config.metricsToken,
    migrationsCurrent: () => migrationsCurrent(store.db, registry.migrations(), { schema: store.schema }),
    storageReachable: async () => {
      await storage.exists('.readyz');
    },
    jobsRunning: parts.jobsRunning,
  };
}

/**
 * Closes the HTTP server of a stopping node (issue 26 §3): its live event streams end at once (the
 * server's preClose hook), requests in flight — turns, uploads — get `graceMs`, then their
 * connections are closed.
 */
export async function closeServer(server: FastifyInstance, graceMs: number): Promise<void> {
  const force = setTimeout(() => server.server.closeAllConnections(), graceMs);
  // A connection whose request ends during the grace stays open (keep-alive) until its client
  // closes it, which held every stop for the whole grace: each is closed once idle, so the node
  // stops as soon as its last request is answered.
  const idle = setInterval(() => server.server.closeIdleConnections(), 100);
  try {
    await server.close();
  } finally {
    clearTimeout(force);
    clearInterval(idle);
  }
}

/**
 * Starts the job queue and stores the plugins' cron schedules. A start that fails (the database
 * went away during start-up) is tried again after 1 s, 2 s, 4 s … up to 30 s until it succeeds or
 * the queue is stopped: a node whose job worker could not start would otherwise serve without
 * running reminders or broadcasts (/readyz says so meanwhile, engine/http/routes/ops.ts).
 */
export async function startJobs(jobs: JobQueue, registry: Registry, log: Logger): Promise<void> {
  for (let attempt = 0; !jobs.stopped; attempt++) {
    try {
      await jobs.start();
      for (const { job } of registry.cron())
        await jobs.schedule(job.definition, job.cron, { data: job.data, ...(job.tz ? { tz: job.tz } : {}) });
      return;
    } catch (err) {
      if (jobs.stopped) return;
      const waitMs = Math.min(30_000, 1000 * 2 ** Math.min(attempt, 5));
      log.warn({ err, retryInMs: waitMs }, 'jobs: could not start; trying again');
      await new Promise((r) => setTimeout(r, waitMs));
    }
  }
}

/**
 * The bot port adapters and plugins get (`ctx.bots`): a bot from the engine's cache, the
 * ownership check of owner routes (401 without a session, 404 `botNotFound` for a bot that is not
 * the owner's), and `changed` to drop a bot from this process's cache after a plugin changed it.
 */
export function botPort(deps: {
  cache: Pick<BotCache, 'get' | 'invalidate'>;
  auth: Auth;
  db: Kysely<Database>;
}): RuntimeContext['bots'] {
  const { cache, auth, db } = deps;
  return {
    get: (chatbotId) => cache.get(chatbotId),
    async owned(req, chatbotId) {
      const owner = await requireOwner(req, { auth, db });
      const bot = await findOwnedChatbot(db, owner.id, chatbotId);
      if (!bot) throw botNotFound();
      return { bot, owner };
    },
    changed: (chatbotId) => cache.invalidate(chatbotId),
  };
}
