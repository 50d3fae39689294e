/**
 * Composes the running app: configuration → store (migrated) → registry (adapters, plugins) →
 * engine → HTTP server. The CLI commands and the tests build Charla through this one function.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { adapters } from '../adapters/index.ts';
import type { CharlaConfig } from '../engine/config.ts';
import { ConversationEngine } from '../engine/conversation/engine.ts';
import { createOpenAiClient, type LlmClient } from '../engine/conversation/llm.ts';
import { buildServer } from '../engine/http/server.ts';
import type { Logger } from '../engine/logger.ts';
import { type FeaturePlugin, Registry } from '../engine/registry/index.ts';
import { resolveSecret, SecretBox } from '../engine/secrets.ts';
import { LocalStorage, type Storage } from '../engine/storage/index.ts';
import { openStore, type Store } from '../engine/store/connect.ts';
import { migrateToLatest } from '../engine/store/migrate.ts';
import { plugins as registeredPlugins } from '../plugins/index.ts';

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
  registry: Registry;
  engine: ConversationEngine;
  log: Logger;
  /** Builds the HTTP server (once). */
  http(): Promise<FastifyInstance>;
  /** Resolves when the migrations are applied (at once unless `deferMigrations`). */
  ready(): Promise<void>;
  /** Sets the base URL used in file links (after listen). */
  setBaseUrl(url: string): void;
  close(): Promise<void>;
}

/** Options of {@link createApp}; tests inject a store, an LLM or a clock. */
export interface CreateAppOptions {
  log: Logger;
  store?: Store;
  llm?: LlmClient | null;
  plugins?: ReadonlyArray<FeaturePlugin<never>>;
  now?: () => Date;
  /** Skip migrations (the store is already migrated). */
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
    options.store ?? (await openStore({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  const migrated = options.skipMigrations ? Promise.resolve() : migrateToLatest(store.db).then(() => {});
  migrated.catch(() => {}); // awaited below or by ready()
  try {
    const storage = new LocalStorage(join(config.dataDir, 'storage', 'chatbot-files'));
    const secrets = new SecretBox(resolveSecret(config.dataDir, config.secret));
    const registry = new Registry(adapters, options.plugins ?? registeredPlugins, log);
    const llm =
      options.llm !== undefined
        ? options.llm
        : config.llm.enabled
          ? createOpenAiClient({
              baseURL: config.llm.baseURL,
              apiKey: config.llm.apiKey,
              model: config.llm.model,
              timeoutMs: config.llm.timeoutMs,
              maxRetries: config.llm.maxRetries,
            })
          : null;
    let baseUrl = config.publicUrl;
    const engine = new ConversationEngine({
      db: store.db,
      registry,
      llm,
      log: log.child({ component: 'engine' }),
      baseUrl: () => baseUrl,
      ...(options.now ? { now: options.now } : {}),
    });
    const runtime = {
      db: store.db,
      log,
      publicUrl: config.publicUrl,
      dispatch: (inbound: Parameters<ConversationEngine['handleTurn']>[0]) => engine.handleTurn(inbound),
    };
    await registry.setup(runtime);
    if (!options.deferMigrations) await migrated;
    let server: FastifyInstance | undefined;
    return {
      config,
      store,
      storage,
      secrets,
      registry,
      engine,
      log,
      async http() {
        server ??= await buildServer({
          db: store.db,
          storeKind: store.kind,
          engine,
          storage,
          secrets,
          registry,
          log,
          baseUrl: () => baseUrl,
          version: VERSION,
        });
        return server;
      },
      ready: () => migrated,
      setBaseUrl(url) {
        baseUrl ??= url;
      },
      async close() {
        if (server) await server.close();
        await engine.close();
        await registry.dispose();
        await store.close();
      },
    };
  } catch (err) {
    if (!options.store) await store.close();
    throw err;
  }
}
