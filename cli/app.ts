/**
 * Composes the running app: configuration → store (migrated) → registry (adapters, plugins) →
 * engine → HTTP server. The CLI commands and the tests build Charla through this one function.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { adapterFactories } from '../adapters/index.ts';
import { type Auth, applyAuthSchema, createAuth } from '../engine/auth/index.ts';
import { SignInLimiter } from '../engine/auth/limits.ts';
import { createMailer, type Mailer } from '../engine/auth/mail.ts';
import { ChannelInbox } from '../engine/channels/inbox.ts';
import { Outbox } from '../engine/channels/outbound.ts';
import { ChannelSupervisor } from '../engine/channels/supervisor.ts';
import type { CharlaConfig } from '../engine/config.ts';
import { Dispatcher } from '../engine/conversation/dispatch.ts';
import { ConversationEngine } from '../engine/conversation/engine.ts';
import type { LlmClient } from '../engine/conversation/llm.ts';
import { requireOwner } from '../engine/http/auth.ts';
import { buildServer } from '../engine/http/server.ts';
import { JobQueue, jobsSchemaOf } from '../engine/jobs/index.ts';
import { createEmbedder } from '../engine/knowledge/embeddings.ts';
import { backfillKnowledge, registerKnowledgeJobs } from '../engine/knowledge/job.ts';
import type { Logger } from '../engine/logger.ts';
import { removeStaleWorkDirs } from '../engine/media.ts';
import { createMetrics } from '../engine/metrics.ts';
import { limitSettings, RateLimiter } from '../engine/rate-limits.ts';
import {
  type ChannelAdapter,
  type ChannelContext,
  type FeaturePlugin,
  type MessagesEvent,
  type PluginContext,
  parseSettings,
  Registry,
  type RuntimeContext,
} from '../engine/registry/index.ts';
import { resolveSecret, SecretBox } from '../engine/secrets.ts';
import type { Storage } from '../engine/storage/index.ts';
import { openStorage } from '../engine/storage/open.ts';
import { openStore, type Store } from '../engine/store/connect.ts';
import { migrateIfNeeded } from '../engine/store/migrate.ts';
import { chatbotIdsOfOwner } from '../engine/store/queries/chatbots.ts';
import { MESSAGES_CHANNEL } from '../engine/store/queries/messages.ts';
import { plugins as registeredPlugins } from '../plugins/index.ts';
import { botPort, closeServer, llmOf, localAliases, opsOf, startJobs, storedFiles } from './app-services.ts';

/** The package version, read once. */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
).version;

/** A composed Charla instance. */
export interface CharlaApp {
  config: CharlaConfig;
  store: Store;
  storage: Storage;
  secrets: SecretBox;
  auth: Auth;
  mailer: Mailer;
  registry: Registry;
  engine: ConversationEngine;
  /** The durable inbox of channel updates. */
  inbox: ChannelInbox;
  /** Messages to followers outside a turn (plugins' `send`), through the plugins' transformers. */
  outbox: Outbox;
  /** The reply path every channel's `ctx.dispatch` goes through (engine/conversation/dispatch.ts). */
  dispatcher: Dispatcher;
  /** Starts and stops channel connections by credentials and days. */
  supervisor: ChannelSupervisor;
  /**
   * Durable scheduled jobs (engine/jobs). Handlers are registered before `startChannels()`, which
   * starts running them; sending needs it started.
   */
  jobs: JobQueue;
  log: Logger;
  /**
   * Connects every channel bot whose owner has days left and keeps reconciling, then starts the
   * scheduled jobs (`charla serve` calls it after listening; commands like `migrate` never do).
   */
  startChannels(): Promise<void>;
  /** Builds the HTTP server (once). */
  http(): Promise<FastifyInstance>;
  /** Resolves when the migrations are applied (at once unless `deferMigrations`). */
  ready(): Promise<void>;
  /**
   * Loads what the first turn needs but start-up does not (the LLM SDK, issue 25): `charla serve`
   * calls it once the port is open, so the first follower does not wait for it. Never throws.
   */
  warmUp(): Promise<void>;
  /** Sets the base URL used in file links (after listen). */
  setBaseUrl(url: string): void;
  close(): Promise<void>;
}

/** Options of {@link createApp}; tests inject a store, an LLM or a clock. */
export interface CreateAppOptions {
  log: Logger;
  store?: Store;
  llm?: LlmClient | null;
  plugins?: ReadonlyArray<FeaturePlugin>;
  now?: () => Date;
  /** Check better-auth's schema even when Charla's migrations are up to date (`charla migrate`). */
  checkAuthSchema?: boolean;
  /** Replaces the mailer (tests). */
  mailer?: Mailer;
  /** Channel settings (`TELEGRAM_API_ROOT`, `TELEGRAM_MODE`, …); default `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
  /** Time between the channel supervisor's full passes, ms (default 30 000). */
  supervisorIntervalMs?: number;
  /** Channel adapters to use instead of the registered ones (tests). */
  adapters?: ReadonlyArray<ChannelAdapter>;
  /** Skip Charla's own migrations (the store is already migrated); plugins' migrations still run. */
  skipMigrations?: boolean;
  /**
   * Return before the migrations finish (`ready()` resolves when they do), so the caller can build
   * the HTTP server while the embedded database boots (cold start of `charla serve`).
   */
  deferMigrations?: boolean;
}

/**
 * Opens the store, migrates it, boots the registry and builds the engine.
 * @throws DataDirBusyError, migration errors, RegistryError.
 */
export async function createApp(config: CharlaConfig, options: CreateAppOptions): Promise<CharlaApp> {
  const log = options.log;
  const store =
    options.store ??
    (await openStore({
      databaseUrl: config.databaseUrl,
      dataDir: config.dataDir,
      log: log.child({ component: 'store' }),
    }));
  const channelAdapters = options.adapters ?? adapterFactories.map((create) => create());
  const registry = new Registry(channelAdapters, options.plugins ?? registeredPlugins, log);
  const ownMigrations = migrateIfNeeded(store.db, registry.migrations(), {
    core: !options.skipMigrations,
    schema: store.schema,
  });
  ownMigrations.catch(() => {}); // awaited through `migrated`
  try {
    const storage = await openStorage(config);
    const secret = resolveSecret(config.dataDir, config.secret);
    const secrets = new SecretBox(secret);
    const mailer =
      options.mailer ??
      createMailer({
        smtpUrl: config.mail.smtpUrl,
        from: config.mail.from,
        outboxDir: join(config.dataDir, 'outbox'),
        log,
      });
    const auth = createAuth({
      db: store.db,
      baseURL: config.publicUrl,
      secret,
      mailer,
      log: log.child({ component: 'auth' }),
      trialDays: config.trialDays,
      google: config.google,
      trustedOrigins: localAliases(config.publicUrl),
    });
    const metrics = createMetrics({
      db: store.db,
      jobsSchema: jobsSchemaOf(store.schema),
      adapters: () => channelAdapters,
      onError: (err, what) => log.warn({ err, what }, 'metrics: could not read a gauge'),
    });
    const llm = llmOf(config, options.llm, metrics);
    const embedder = createEmbedder(config.embeddings);
    // better-auth's schema is checked whenever Charla's migrations change something (a new
    // database, an upgrade) and by `charla migrate`; a start with nothing to apply skips it.
    const migrated = ownMigrations.then(async ({ applied }) => {
      if (applied.length > 0 || options.checkAuthSchema) {
        const changed = await applyAuthSchema(auth);
        if (changed.length > 0) log.info({ tables: changed }, 'better-auth schema updated');
      }
    });
    migrated.catch(() => {}); // awaited below or by ready()
    let baseUrl = config.publicUrl;
    const engine = new ConversationEngine({
      db: store.db,
      registry,
      llm,
      embedder,
      log: log.child({ component: 'engine' }),
      baseUrl: () => baseUrl,
      ...(options.now ? { now: options.now } : {}),
      onTurn: ({ channel, outcome, ms }) => {
        metrics.turns.inc({ channel, outcome });
        metrics.turnDuration.observe({ channel }, ms / 1000);
      },
    });
    // Every process forgets a bot another one changed (NOTIFY; not awaited: the 5 s expiry bounds it).
    const botEvents = engine.cache.listen((channel, onPayload, listenOptions) =>
      store.listen(channel, onPayload, listenOptions),
    );
    botEvents.catch((err: unknown) => log.warn({ err }, 'could not listen for bot changes'));
    const supervisor = new ChannelSupervisor(
      store.db,
      log.child({ component: 'channels' }),
      channelAdapters,
      {
        ...(options.supervisorIntervalMs ? { intervalMs: options.supervisorIntervalMs } : {}),
        ...(options.now ? { now: options.now } : {}),
        listen: (channel, onPayload) => store.listen(channel, onPayload),
      },
    );
    const outbox = new Outbox({
      db: store.db,
      registry,
      cache: engine.cache,
      effects: engine.effects,
      log: log.child({ component: 'outbox' }),
    });
    // Every reply goes through the dispatcher: turn, message, transformers, adapter's send (issue 25 §1).
    const dispatcher = new Dispatcher({
      db: store.db,
      turns: engine,
      outbox,
      log: log.child({ component: 'dispatch' }),
    });
    // Created before the registry's setup so plugins' handlers are registered; started with the channels.
    const jobs = new JobQueue({ store, log: log.child({ component: 'jobs' }), work: config.role !== 'web' });
    // Issue 24 §2: every limit in the database, so all processes count together.
    const limits = new RateLimiter(store.db, limitSettings(options.env ?? process.env), options.now);
    const runtime: RuntimeContext = {
      db: store.db,
      log,
      publicUrl: config.publicUrl,
      offline: engine.offline,
      dispatch: (inbound, dispatchOptions) =>
        dispatcher.dispatch(registry.adapters.get(inbound.channel), inbound, dispatchOptions),
      env: options.env ?? process.env,
      now: options.now ?? (() => new Date()),
      secrets,
      requireOwner: (req) => requireOwner(req, { auth, db: store.db }),
      mayRun: (chatbotId) => supervisor.mayRun(chatbotId),
      reconcile: (chatbotId) => supervisor.reconcile(chatbotId),
      reconcileOwner: async (userId) => {
        // The owner's days changed (a payment, a coupon): the bot cache holds their plan too.
        for (const id of await chatbotIdsOfOwner(store.db, userId)) engine.cache.invalidate(id);
        await supervisor.reconcileOwner(userId);
      },
      jobs,
      distDir: fileURLToPath(new URL('../dist', import.meta.url)),
      llm: llm
        ? {
            complete: (messages, opts) => llm.complete(messages, opts?.signal ? { signal: opts.signal } : {}),
          }
        : null,
      limits,
      bots: botPort({ cache: engine.cache, auth, db: store.db }),
      listen: (channel, onPayload, listenOptions) => store.listen(channel, onPayload, listenOptions),
      role: config.role,
    };
    const { filePath, openFile } = storedFiles(storage);
    await registry.setup(
      (plugin): Omit<PluginContext, 'settings' | 'events'> => ({
        ...runtime,
        log: log.child({ plugin: plugin.id }),
        send: (target, message, sendOptions) => outbox.send(target, message, sendOptions),
        capabilities: (channel) => registry.adapterFor(channel)?.capabilities ?? null,
        onMessages: (listener, listenOptions) =>
          store.listen(
            MESSAGES_CHANNEL,
            (payload) => {
              try {
                listener(JSON.parse(payload) as MessagesEvent);
              } catch (err) {
                log.warn({ err, plugin: plugin.id }, 'a plugin’s message listener failed');
              }
            },
            listenOptions,
          ),
        ...{ filePath, mailer, storage },
      }),
    );
    for (const { job } of registry.jobs()) jobs.register(job.definition, job.handler);
    registerKnowledgeJobs(jobs, { db: store.db, storage, log, registry, embedder }); // issue 30 §1, §2
    metrics.addPluginGauges(registry.gauges()); // their `/metrics` gauges (issue 26 §3)
    const inbox = new ChannelInbox(store.db, log.child({ component: 'inbox' }), {
      ingestDb: store.ingest,
      leaseMs: config.inboxLeaseMs,
      singleProcess: store.kind === 'pglite',
    });
    for (const adapter of channelAdapters) {
      const channelContext: ChannelContext = {
        ...runtime,
        settings: adapter.envSchema
          ? parseSettings(`channel "${adapter.id}"`, adapter.envSchema, runtime.env)
          : undefined,
        log: log.child({ channel: adapter.id }),
        openFile,
        inbox,
        // Replies go out through this adapter, whatever channel the web adapter names (`ialanding`, `test`).
        dispatch: (inbound, dispatchOptions) => dispatcher.dispatch(adapter, inbound, dispatchOptions),
      };
      await adapter.start(channelContext);
      const connections = adapter.connections;
      if (connections) inbox.register(adapter.id, (row) => connections.handleUpdate(row));
    }
    let channelsStarted = false;
    if (!options.deferMigrations) await migrated;
    let server: FastifyInstance | undefined;
    return {
      config,
      store,
      storage,
      secrets,
      auth,
      mailer,
      registry,
      engine,
      inbox,
      outbox,
      dispatcher,
      supervisor,
      jobs,
      log,
      async startChannels() {
        await migrated;
        channelsStarted = true;
        // Conversion folders a killed process left in the temporary directory (issue 24 §8).
        void removeStaleWorkDirs().then(
          (n) => n > 0 && log.info({ folders: n }, 'removed stale media conversion folders'),
        );
        // A web node leaves the background work to the workers (issue 26 §2, CHARLA_ROLE).
        if (config.role !== 'web') {
          inbox.startPruning();
          inbox.startRecovery();
        }
        await supervisor.start();
        await startJobs(jobs, registry, log).then(
          () => void backfillKnowledge({ db: store.db, jobs, log, embedder }),
        );
      },
      async http() {
        server ??= await buildServer({
          db: store.db,
          storeKind: store.kind,
          engine,
          storage,
          auth,
          googleSignIn: Boolean(config.google),
          mailConfigured: Boolean(options.mailer ?? config.mail.smtpUrl),
          listen: (channel, onPayload, listenOptions) => store.listen(channel, onPayload, listenOptions),
          signInLimiter: new SignInLimiter(limits),
          limits,
          registry,
          log,
          baseUrl: () => baseUrl,
          jobs,
          publicUrl: config.publicUrl,
          version: VERSION,
          trustProxy: config.trustProxy,
          role: config.role,
          secrets,
          dashboardDir: fileURLToPath(new URL('../dist/dashboard', import.meta.url)),
          // A process that never starts its channels (a CLI command's app) runs no jobs by design.
          ops: opsOf({
            config,
            store,
            registry,
            storage,
            metrics,
            jobsRunning: () => !channelsStarted || jobs.running,
          }),
        });
        return server;
      },
      ready: () => migrated,
      async warmUp() {
        await llm?.warm?.().catch((err: unknown) => log.warn({ err }, 'could not load the LLM client'));
      },
      setBaseUrl(url) {
        baseUrl ??= url;
      },
      async close() {
        if (server) await closeServer(server, config.shutdownGraceMs);
        // Running jobs get a grace period; unfinished ones are handed back for a retry.
        await jobs.stop();
        // Running handlers finish (new updates stay pending for the next start), then bots stop.
        await inbox.close();
        if (channelsStarted) await supervisor.stop();
        for (const adapter of channelAdapters) await adapter.stop();
        await (await botEvents.catch(() => async () => {}))();
        await engine.close();
        await registry.dispose();
        storage.close?.();
        await store.close();
      },
    };
  } catch (err) {
    if (!options.store) await store.close();
    throw err;
  }
}
