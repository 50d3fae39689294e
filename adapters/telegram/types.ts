/**
 * The Telegram adapter's types (adapters/telegram/index.ts builds the adapter): its settings, a bot's
 * stored connection, a connection in this process, and what the adapter exposes to its routes and
 * webhook beyond the registry's contract. Their own file, so those modules import no adapter code.
 */
import type { Api } from 'grammy';
import { z } from 'zod';
import type { ChannelAdapter, ChannelConnections, ChannelContext } from '../../engine/registry/index.ts';
import type { Poller } from './poller.ts';

/** Settings from the environment (README: configuration). */
export const TelegramSettings = z.object({
  /** Bot API server, e.g. a local `telegram-bot-api` or a test server. */
  TELEGRAM_API_ROOT: z
    .string()
    .url()
    .default('https://api.telegram.org')
    .transform((u) => u.replace(/\/+$/, '')),
  /** `auto`: webhooks when PUBLIC_URL is https, long polling otherwise. */
  TELEGRAM_MODE: z.enum(['auto', 'webhook', 'polling']).default('auto'),
  /** Long-polling `getUpdates` timeout, seconds. */
  TELEGRAM_POLL_TIMEOUT_S: z.coerce.number().int().min(0).max(50).default(25),
  /**
   * Long polling: one node at a time polls a bot, holding a lease it renews every third of this
   * (ms); when that node dies another takes over within this time (issue 26 §2).
   */
  TELEGRAM_POLL_LEASE_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
});
export type TelegramSettings = z.infer<typeof TelegramSettings>;

/** A bot's stored connection (token decrypted). */
export const TelegramConfig = z.object({
  token: z.string().regex(/^\d+:[\w-]+$/),
  username: z.string().min(1),
  botId: z.string().nullable(),
});
export type TelegramConfig = z.infer<typeof TelegramConfig>;

/** One connected bot. */
export interface Connection {
  chatbotId: string;
  config: TelegramConfig;
  /** Numeric id of the Telegram bot (from the token's prefix, confirmed by getMe at connect). */
  botId: string;
  api: Api;
  mode: 'webhook' | 'polling';
  poller: Poller | undefined;
  /** Telegram `file_id` of each stored file already uploaded to this bot. */
  fileIds: Map<string, string>;
  lastUpdateAt: Date | null;
}

/** What {@link TelegramAdapter} exposes beyond the registry interface (routes and tests use it). */
export interface TelegramAdapter extends ChannelAdapter<TelegramConfig, TelegramSettings> {
  /** Its per-bot connections (always present: the supervisor starts and stops them). */
  connections: ChannelConnections<TelegramConfig>;
  /** The settings in force (after `start`). */
  settings(): TelegramSettings;
  /** The receiving mode of this process. */
  mode(): 'webhook' | 'polling';
  /** The webhook URL of a bot (webhook mode). */
  webhookUrl(chatbotId: string): string;
  /** The webhook secret token of a bot connected as Telegram bot `telegramBotId`. */
  webhookSecret(chatbotId: string, telegramBotId: string): string;
  /** The connection of a bot, if connected here. */
  connection(chatbotId: string): { botId: string; api: Api } | undefined;
  /** The runtime (after `start`). */
  context(): ChannelContext<TelegramSettings>;
  /** Records a failure for the owner to see. */
  recordError(chatbotId: string, message: string): void;
  /** Records that an update arrived. */
  touch(chatbotId: string): void;
}
