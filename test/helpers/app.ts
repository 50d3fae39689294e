/**
 * A composed Charla for tests: a test database, a temporary data dir, a silent logger, and the LLM
 * a test chooses (a client of the local OpenAI-format server, or null for the offline responder).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CharlaApp, createApp } from '../../cli/app.ts';
import type { Mailer } from '../../engine/auth/mail.ts';
import { createSessionToken, upsertOwnerWithPassword } from '../../engine/auth/owners.ts';
import { loadConfig } from '../../engine/config.ts';
import { createOpenAiClient, type LlmClient } from '../../engine/conversation/llm.ts';
import { createLogger, type Logger } from '../../engine/logger.ts';
import type { ChannelAdapter, FeaturePlugin } from '../../engine/registry/index.ts';
import type { Store, StoreKind } from '../../engine/store/connect.ts';
import { testStore } from './db.ts';

/** A test app and its temporary data dir. */
export interface TestApp extends CharlaApp {
  dataDir: string;
  /** Creates a confirmed owner (password "contraseña-segura") and returns its id and a session token. */
  owner(email: string): Promise<{ id: string; token: string }>;
}

/** An LLM client of a local fake, with no retries and a short time limit. */
export function fakeLlm(
  baseURL: string,
  overrides: { timeoutMs?: number; maxRetries?: number } = {},
): LlmClient {
  return createOpenAiClient({
    baseURL,
    apiKey: 'test-key',
    model: 'test-model',
    timeoutMs: overrides.timeoutMs ?? 5_000,
    maxRetries: overrides.maxRetries ?? 0,
  });
}

/** Builds a Charla on a fresh test database. */
export async function createTestApp(
  kind: StoreKind,
  options: {
    llm?: LlmClient | null;
    now?: () => Date;
    mailer?: Mailer;
    env?: Record<string, string>;
    supervisorIntervalMs?: number;
    /** Plugins instead of the registered ones. */
    plugins?: ReadonlyArray<FeaturePlugin>;
    /** Channel adapters instead of the registered ones. */
    adapters?: ReadonlyArray<ChannelAdapter>;
    /**
     * An open store to share (a second "process" on the same database); the app does not close it.
     */
    store?: Store;
    /** The app's logger (default: silent, or TEST_LOG_LEVEL). */
    log?: Logger;
  } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-app-'));
  const store = options.store ? { ...options.store, close: async () => {} } : await testStore(kind);
  const config = loadConfig({
    CHARLA_DATA_DIR: dataDir,
    CHARLA_SECRET: 'test-secret-of-at-least-32-characters',
    ...options.env,
  });
  const app = await createApp(config, {
    log: options.log ?? createLogger({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    store,
    skipMigrations: true,
    llm: options.llm ?? null,
    // Channel settings come only from the test's env, never from the machine's.
    env: { ...options.env },
    ...(options.supervisorIntervalMs ? { supervisorIntervalMs: options.supervisorIntervalMs } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
    ...(options.plugins ? { plugins: options.plugins } : {}),
    ...(options.adapters ? { adapters: options.adapters } : {}),
  });
  const closeApp = app.close.bind(app);
  return Object.assign(app, {
    dataDir,
    async owner(email: string) {
      const { id } = await upsertOwnerWithPassword(app.auth, email, 'contraseña-segura');
      return { id, token: await createSessionToken(app.auth, id) };
    },
    async close() {
      await closeApp();
      rmSync(dataDir, { recursive: true, force: true });
    },
  });
}
