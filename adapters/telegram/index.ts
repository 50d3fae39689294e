/**
 * The Telegram channel (issue 5, spec 000 §2 and §7, spec 001 §4), on grammY's Bot API client.
 *
 * - **Receive**: with a public HTTPS address (`PUBLIC_URL`, or `TELEGRAM_MODE=webhook`) each bot
 *   gets a webhook at `/channels/telegram/<chatbotId>` with its own `secret_token`; otherwise one
 *   long-polling loop per bot ({@link Poller}), all in this process. Either way an update is stored
 *   in the durable inbox before Telegram gets its acknowledgement, and handled from there, in
 *   order per chat and once per `update_id`.
 * - **Answer**: an update is parsed (handle.ts) and handed to `ctx.dispatch`, which owns the reply
 *   (`/start` gets the greeting in the bot's language, "typing…" shows through `typing` while
 *   the LLM works, the transformers run); `send` splits replies at 4096 characters, sends files
 *   with the method their type needs and a LIST offer as inline buttons (a tap sends that file).
 *   Media without text is kept in the conversation and answered with a request for words.
 * - **Connections** are started and stopped by the supervisor (engine/channels/supervisor.ts):
 *   only bots whose owner has days left run; the token stays stored while paused.
 */
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { Api } from 'grammy';
import type { Update } from 'grammy/types';
import { reportHealth } from '../../engine/channels/health-report.ts';
import { DeferUpdate } from '../../engine/channels/inbox.ts';
import { attachmentSource } from '../../engine/files.ts';
import type { ChannelContext, ConnectionHealth } from '../../engine/registry/index.ts';
import type { Attachment } from '../../engine/schemas.ts';
import { publicFileUrl } from '../../engine/storage/index.ts';
import { leaseHeld } from '../../engine/store/leases.ts';
import {
  describeError,
  type FileSource,
  isPermanent,
  MAX_TEXT,
  plainApi,
  sendingApi,
  sendReply,
} from './bot-api.ts';
import { createUpdateHandlers } from './handle.ts';
import { ALLOWED_UPDATES, Poller } from './poller.ts';
import { telegramBotIds, telegramCredentials } from './queries.ts';
import { telegramApiRoutes } from './routes.ts';
import { type Connection, type TelegramAdapter, TelegramConfig, TelegramSettings } from './types.ts';
import { chatIdOf, TELEGRAM } from './updates.ts';
import { telegramWebhookSecret, webhookRoutes } from './webhook.ts';
import { WEBHOOK_CHECK_MS, webhookHealth } from './webhook-health.ts';

export { type Connection, type TelegramAdapter, TelegramConfig, TelegramSettings } from './types.ts';
export { TELEGRAM } from './updates.ts';

/** Creates the Telegram adapter (one per app). */
export function createTelegramAdapter(): TelegramAdapter {
  let ctx: ChannelContext<TelegramSettings> | undefined;
  let settings: TelegramSettings | undefined;
  const connections = new Map<string, Connection>();
  /** This process as a holder of polling leases (engine/store/leases.ts). */
  const holder = randomUUID();
  /** The periodic webhook check (webhook mode only). */
  let webhookCheck: NodeJS.Timeout | undefined;
  /** Last failure per bot (connect failures included), for the owner's health view. */
  const errors = new Map<string, { message: string; at: Date }>();

  const need = () => {
    if (!ctx || !settings) throw new Error('telegram adapter used before start()');
    return { ctx, settings };
  };
  const mode = (): 'webhook' | 'polling' => {
    const { ctx, settings } = need();
    if (settings.TELEGRAM_MODE !== 'auto') return settings.TELEGRAM_MODE;
    return ctx.publicUrl?.startsWith('https://') ? 'webhook' : 'polling';
  };
  const recordError = (chatbotId: string, message: string) => {
    errors.set(chatbotId, { message, at: new Date() });
    ctx?.log.warn({ channel: TELEGRAM, chatbotId, error: message }, 'telegram connection problem');
  };

  async function loadConfig(chatbotId: string) {
    const { ctx } = need();
    const row = await telegramCredentials(ctx.db, chatbotId);
    if (!row?.telegram_token || !row.telegram_username) return undefined;
    const config = TelegramConfig.parse({
      token: ctx.secrets.decrypt(row.telegram_token),
      username: row.telegram_username,
      botId: row.telegram_bot_id,
    });
    return { row, config };
  }

  const { handleMessage, handleCallback } = createUpdateHandlers({ ctx: () => need().ctx });

  /**
   * Where an attachment's bytes are: the stored file (local disk or S3, streamed to Telegram), or
   * its public address.
   * @throws MissingFileError when the stored file is gone (permanent: `isPermanent`).
   */
  async function resolveFile(attachment: Attachment): Promise<FileSource> {
    const { ctx } = need();
    // A bot file, or an owner's file kept in the storage (issue 27 §3), streamed; else its address.
    const source = await attachmentSource(ctx.db, attachment, ctx.publicUrl);
    if ('url' in source) return { url: source.url };
    const stored = source.key;
    const opened = await ctx.openFile(stored);
    if (!opened) return { url: publicFileUrl(stored, ctx.publicUrl) };
    let first: Readable | undefined = opened.stream;
    /** A retried upload opens the file again. */
    async function* again(): AsyncIterable<Uint8Array> {
      const reopened = await ctx.openFile(stored);
      if (reopened) yield* reopened.stream;
    }
    return {
      open: () => {
        const stream = first;
        first = undefined;
        return stream ?? again();
      },
      close: () => first?.destroy(),
    };
  }

  const adapter: TelegramAdapter = {
    id: TELEGRAM,
    envSchema: TelegramSettings,
    capabilities: { maxTextLength: MAX_TEXT, voiceNotes: true, choices: true, streaming: false, push: true },

    async start(context) {
      ctx = context;
      settings = context.settings;
      if (mode() === 'webhook' && !context.publicUrl)
        throw new Error('TELEGRAM_MODE=webhook needs PUBLIC_URL (the address Telegram posts updates to)');
      // Issue 27 §1: Telegram tells a failing webhook only through getWebhookInfo, so this node
      // asks it for the bots it connected, every WEBHOOK_CHECK_MS (health() reports a change).
      if (mode() === 'webhook') {
        webhookCheck = setInterval(() => {
          for (const [id, conn] of connections)
            if (conn.mode === 'webhook') void adapter.connections.health(id).catch(() => {});
        }, WEBHOOK_CHECK_MS);
        webhookCheck.unref();
      }
    },

    async stop() {
      if (webhookCheck) clearInterval(webhookCheck);
      webhookCheck = undefined;
      await Promise.allSettled(
        [...connections.keys()].map((id) => adapter.connections.disconnect(id, 'shutdown')),
      );
    },

    /**
     * Sends split text, the file with the method its type needs, the LIST offer as inline buttons
     * and a voice note (bot-api.ts). A file Telegram refuses in a reply is recorded for the owner.
     */
    async send(chatbotId, chatId, message, to) {
      const conn = connections.get(chatbotId);
      if (!conn) throw new Error(`telegram bot ${chatbotId} is not connected`);
      const refused = to?.inbound
        ? (reason: string) =>
            recordError(chatbotId, `Telegram rechazó el archivo ${message.attachment?.name ?? ''}: ${reason}`)
        : undefined;
      return { messageIds: await sendReply(conn.api, chatId, message, resolveFile, conn.fileIds, refused) };
    },

    /** Bot API `sendChatAction`: "typing…" lasts 5 s or until a message, so it is repeated. */
    typing(chatbotId, chatId) {
      void connections
        .get(chatbotId)
        ?.api.sendChatAction(chatId, 'typing')
        .catch(() => {});
    },
    typingEveryMs: 4500,

    /**
     * Bot API `getFile`, then the download from `<api root>/file/bot<token>/<file_path>` (Bot API:
     * files up to 20 MB, the link valid for at least an hour). The token never reaches a log: errors
     * are described without the URL.
     */
    async downloadMedia(chatbotId, channelFileId) {
      const conn = connections.get(chatbotId);
      if (!conn) throw new Error(`telegram bot ${chatbotId} is not connected`);
      const file = await conn.api.getFile(channelFileId);
      if (!file.file_path) throw new Error('Telegram gave no path for this file (over 20 MB?)');
      const { settings } = need();
      const res = await fetch(
        `${settings.TELEGRAM_API_ROOT}/file/bot${conn.config.token}/${file.file_path}`,
        {
          signal: AbortSignal.timeout(30_000),
        },
      ).catch((err: unknown) => {
        throw new Error(`could not download the file from Telegram: ${describeError(err)}`);
      });
      if (!res.ok) throw new Error(`Telegram answered ${res.status} to the file download`);
      return { data: Buffer.from(await res.arrayBuffer()), mime: res.headers.get('content-type') };
    },

    routes: webhookRoutes(() => adapter),
    apiRoutes: telegramApiRoutes(() => adapter),

    connections: {
      configSchema: TelegramConfig,

      configured: () => telegramBotIds(need().ctx.db),

      connected: () => [...connections.keys()],

      async connect(chatbotId) {
        const { ctx, settings } = need();
        if (connections.has(chatbotId)) return;
        const loaded = await loadConfig(chatbotId).catch((err: unknown) => {
          recordError(chatbotId, `stored token unreadable: ${describeError(err)}`);
          return undefined;
        });
        if (!loaded) return;
        const { config } = loaded;
        const botId = config.botId ?? config.token.split(':')[0]!;
        // grammY is loaded here, at the first connect, not at start-up (bot-api.ts).
        let api: Api;
        let check: Api;
        try {
          [api, check] = await Promise.all([
            sendingApi(config.token, settings.TELEGRAM_API_ROOT),
            plainApi(config.token, settings.TELEGRAM_API_ROOT),
          ]);
        } catch (err) {
          recordError(chatbotId, describeError(err));
          return;
        }
        const conn: Connection = {
          chatbotId,
          config,
          botId,
          api,
          mode: mode(),
          poller: undefined,
          fileIds: new Map(),
          lastUpdateAt: null,
        };
        try {
          if (conn.mode === 'webhook') {
            await check.setWebhook(adapter.webhookUrl(chatbotId), {
              secret_token: adapter.webhookSecret(chatbotId, botId),
              allowed_updates: [...ALLOWED_UPDATES],
            });
          } else if (ctx.role !== 'web') {
            // A webhook left from another deployment would make getUpdates fail with 409. A web
            // node (CHARLA_ROLE=web) never polls: a worker does, and this node only sends.
            await check.deleteWebhook();
            conn.poller = new Poller(
              check,
              async (update) => {
                await ctx.inbox.accept({
                  channel: TELEGRAM,
                  chatbotId,
                  updateKey: `${botId}:${update.update_id}`,
                  chatId: chatIdOf(update),
                  payload: update,
                });
                conn.lastUpdateAt = new Date();
              },
              (message) => {
                recordError(chatbotId, message);
                // Issue 27 §1: a refused token or a conflicting webhook is "a channel is down".
                if (/\b(401|403|404|409)\b|unauthorized|conflict/i.test(message))
                  void reportHealth(ctx, { chatbotId, channel: TELEGRAM, ok: false, reason: message });
              },
              {
                timeoutSeconds: settings.TELEGRAM_POLL_TIMEOUT_S,
                lease: {
                  db: ctx.db,
                  name: `telegram-poll:${chatbotId}`,
                  holder,
                  ms: settings.TELEGRAM_POLL_LEASE_MS,
                },
              },
            );
          }
        } catch (err) {
          recordError(chatbotId, describeError(err));
          void reportHealth(ctx, { chatbotId, channel: TELEGRAM, ok: false, reason: describeError(err) });
          return; // not connected: the supervisor tries again at its next pass
        }
        // The owner may have changed or removed the token while this connect was setting up (a
        // verify racing the supervisor): then undo, and the reconcile that follows connects anew.
        const current = await telegramCredentials(ctx.db, chatbotId);
        const still = current?.telegram_token
          ? ctx.secrets.decrypt(current.telegram_token) === config.token
          : false;
        if (!still) {
          if (conn.mode === 'webhook') await check.deleteWebhook().catch(() => {});
          return;
        }
        errors.delete(chatbotId);
        connections.set(chatbotId, conn);
        void reportHealth(ctx, { chatbotId, channel: TELEGRAM, ok: true });
        conn.poller?.start();
        await ctx.inbox.recover(TELEGRAM, chatbotId);
      },

      async disconnect(chatbotId, reason) {
        const conn = connections.get(chatbotId);
        if (!conn) return;
        connections.delete(chatbotId);
        await conn.poller?.stop();
        if (conn.mode === 'webhook' && reason !== 'shutdown') {
          // Paused or removed: Telegram stops posting (updates wait at Telegram up to 24 h).
          await plainApi(conn.config.token, need().settings.TELEGRAM_API_ROOT)
            .then((api) => api.deleteWebhook())
            .catch((err: unknown) => recordError(chatbotId, describeError(err)));
        }
      },

      async handleUpdate(row) {
        const conn = connections.get(row.chatbotId);
        if (!conn) throw new DeferUpdate('bot not connected in this process');
        const update = row.payload as Update;
        try {
          if (update.message) await handleMessage(conn, update.message);
          else if (update.callback_query) await handleCallback(conn, update.callback_query);
        } catch (err) {
          // Telegram refused for good (the follower blocked the bot, a bad request): retrying would
          // only repeat what already went out. Recorded for the owner; the update counts as handled.
          if (!isPermanent(err)) throw err;
          recordError(row.chatbotId, describeError(err));
        }
      },

      async health(chatbotId): Promise<ConnectionHealth> {
        const { ctx, settings } = need();
        const conn = connections.get(chatbotId);
        const error = errors.get(chatbotId);
        const base = {
          mode: mode(),
          lastError: error?.message ?? null,
          lastErrorAt: error?.at.toISOString() ?? null,
          lastUpdateAt: conn?.lastUpdateAt?.toISOString() ?? null,
          pendingUpdates: null as number | null,
        };
        if (!conn) {
          const configured = (await telegramCredentials(ctx.db, chatbotId))?.telegram_token;
          if (!configured) return { ...base, state: 'disconnected' };
          return { ...base, state: (await ctx.mayRun(chatbotId)) ? 'error' : 'paused' };
        }
        if (conn.mode === 'polling' && !conn.poller) {
          // A web node (CHARLA_ROLE=web) does not poll: a worker holding the lease does.
          const polled = await leaseHeld(ctx.db, `telegram-poll:${chatbotId}`);
          return polled
            ? { ...base, state: 'connected' }
            : {
                ...base,
                state: 'error',
                lastError: 'ningún nodo de trabajo recibe los mensajes de este bot',
              };
        }
        if (conn.mode === 'polling') {
          const s = conn.poller!.state;
          return {
            ...base,
            lastError: s.lastError ?? base.lastError,
            lastErrorAt: s.lastErrorAt?.toISOString() ?? base.lastErrorAt,
            state: s.lastError ? 'error' : 'connected',
          };
        }
        // Webhook: ask Telegram what it sees (and tell the owner when it cannot deliver).
        return webhookHealth(need().ctx, {
          chatbotId,
          token: conn.config.token,
          apiRoot: settings.TELEGRAM_API_ROOT,
          expected: adapter.webhookUrl(chatbotId),
          base,
        });
      },
    },

    settings: () => need().settings,
    mode,
    webhookUrl: (chatbotId) => `${need().ctx.publicUrl}/channels/telegram/${encodeURIComponent(chatbotId)}`,
    webhookSecret: (chatbotId, telegramBotId) =>
      telegramWebhookSecret(need().ctx.secrets, chatbotId, telegramBotId),
    connection: (chatbotId) => {
      const c = connections.get(chatbotId);
      return c ? { botId: c.botId, api: c.api } : undefined;
    },
    context: () => need().ctx,
    recordError,
    touch: (chatbotId) => {
      const c = connections.get(chatbotId);
      if (c) c.lastUpdateAt = new Date();
    },
  };
  return adapter;
}
