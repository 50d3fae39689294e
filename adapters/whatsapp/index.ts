/**
 * The WhatsApp channel (issue 13; spec 000 §2–§8), one adapter with two backends chosen per bot,
 * behind the same registry contract, inbox, supervisor and health as Telegram:
 *
 * - **Linked device** (`baileys`, the spec's "assigned number" flow): the owner links a number by
 *   QR code or pairing code; the auth state lives in the database; one process at a time holds a
 *   session's socket (a lease); reconnects with backoff, forgets everything on "logged out"
 *   (baileys/session.ts). `@whiskeysockets/baileys` is imported only when a bot uses it.
 * - **Cloud API** (`cloud`, Meta's WhatsApp Business Platform): webhooks at `/channels/whatsapp`,
 *   signed and routed by phone number id (cloud/webhook.ts); sending through the Graph API
 *   (cloud/transport.ts) inside the 24-hour window.
 *
 * Either way a follower's message is stored in the durable inbox first and answered from there,
 * in order per chat, once per message id (shared/answer.ts). Days gating is the supervisor's: at
 * 0 days a linked device's socket closes (its session is kept) and Cloud API messages wait in the
 * inbox; on renewal both come back and answer what waited.
 */
import { randomUUID } from 'node:crypto';
import { Handoffs } from '../../engine/channels/handoff.ts';
import { reportHealth } from '../../engine/channels/health-report.ts';
import { DeferUpdate } from '../../engine/channels/inbox.ts';
import type { ChannelContext } from '../../engine/registry/index.ts';
import { languageCode } from '../../engine/schemas.ts';
import { type BaileysLib, loadBaileys } from './baileys/lib.ts';
import { BaileysSession, type SessionEnd } from './baileys/session.ts';
import { describeGraphError, Graph } from './cloud/graph.ts';
import { cloudNumberCache } from './cloud/number-cache.ts';
import { createTemplating } from './cloud/templating.ts';
import { CloudTransport } from './cloud/transport.ts';
import { webhookRoutes } from './cloud/webhook.ts';
import type { Connection } from './connection.ts';
import { type WhatsAppAdapter, type WhatsAppAdapterOptions, WhatsAppConfig } from './contract.ts';
import { whatsappHealth } from './health.ts';
import { pruneMessages, storeIncoming, touchContact } from './messages.ts';
import { connectionOf, recordConnectionError, touchConnection, whatsappBotIds } from './queries.ts';
import { whatsappApiRoutes } from './routes.ts';
import { WhatsAppSettings } from './settings.ts';
import { createAnswering, MAX_TEXT } from './shared/answer.ts';
import { PermanentSendError, type WaInbound, WHATSAPP } from './shared/types.ts';
import { waDb } from './tables.ts';

export type { CloudNumberInfo, WhatsAppAdapter, WhatsAppAdapterOptions } from './contract.ts';
export { WhatsAppConfig } from './contract.ts';
export { WHATSAPP } from './shared/types.ts';

/** How often a bot's "last message received" is written, at most, ms. */
const TOUCH_EVERY_MS = 30_000;
/** Message records are kept this long (statuses, retry content), ms. */
const MESSAGES_KEEP_MS = 14 * 86_400_000;
/** How often templates under review at Meta are checked (besides the webhook), ms. */
const TEMPLATE_CHECK_MS = 15 * 60_000;

/** Creates the WhatsApp adapter (one per app). */
export function createWhatsAppAdapter(options: WhatsAppAdapterOptions = {}): WhatsAppAdapter {
  let ctx: ChannelContext<WhatsAppSettings> | undefined;
  let settings: WhatsAppSettings | undefined;
  let lib: Promise<BaileysLib> | undefined;
  const holder = randomUUID();
  const connections = new Map<string, Connection>();
  const touched = new Map<string, number>();
  const lastUpdate = new Map<string, Date>();
  const cloudCache = cloudNumberCache(() => need());
  const cloudChecks = new Map<string, { error: string | null; at: number }>();
  const mediaIds = new Map<string, Map<string, { id: string; at: number }>>();
  let pruneTimer: NodeJS.Timeout | undefined;
  let templateTimer: NodeJS.Timeout | undefined;
  /** Sends of linked devices held by another node, handed to it (engine/channels/handoff.ts). */
  let handoffs: Handoffs | undefined;

  const need = () => {
    if (!ctx || !settings) throw new Error('whatsapp adapter used before start()');
    return { ctx, settings, db: waDb(ctx.db) };
  };
  const baileys = () => {
    lib ??= (options.loadBaileys ?? loadBaileys)();
    return lib;
  };

  const recordError = async (chatbotId: string, message: string) => {
    const { ctx, db } = need();
    ctx.log.warn({ channel: WHATSAPP, chatbotId, error: message }, 'whatsapp problem');
    // Issue 27 §1: the Cloud API refused the token (Graph code 190, or 401) is "a channel is down".
    if (/^(190|401)\b/.test(message))
      await reportHealth(ctx, { chatbotId, channel: WHATSAPP, ok: false, reason: message });
    await recordConnectionError(db, chatbotId, message).catch((err: unknown) =>
      ctx.log.error({ err }, 'could not record a whatsapp error'),
    );
  };

  const { answer, deliver } = createAnswering({ ctx: () => need().ctx, recordError });
  // Issue 28: templates outside the 24-hour window, held owner replies (cloud/templating.ts).
  const templating = createTemplating({
    ctx: () => need().ctx,
    db: () => need().db,
    graph: (token) => adapter.graph(token),
    recordError,
    deliver,
  });

  const cloudTransport = (chatbotId: string, phoneNumberId: string, graph: Graph) => {
    const { ctx, db } = need();
    if (!mediaIds.has(chatbotId)) mediaIds.set(chatbotId, new Map());
    return new CloudTransport({
      graph,
      phoneNumberId,
      chatbotId,
      db,
      now: ctx.now,
      mediaIds: mediaIds.get(chatbotId)!,
      onError: (err) => ctx.log.debug({ err: describeGraphError(err), chatbotId }, 'typing indicator failed'),
    });
  };

  /** The transport of a connected bot, or undefined. */
  const transportOf = (chatbotId: string) => {
    const conn = connections.get(chatbotId);
    return conn ? (conn.backend === 'baileys' ? conn.session : conn.transport) : undefined;
  };

  const adapter: WhatsAppAdapter = {
    id: WHATSAPP,
    envSchema: WhatsAppSettings,
    capabilities: { maxTextLength: MAX_TEXT, voiceNotes: true, choices: true, streaming: false, push: true },
    holder,

    async start(context) {
      ctx = context;
      settings = context.settings;
      const prune = () =>
        pruneMessages(waDb(context.db), new Date(Date.now() - MESSAGES_KEEP_MS)).catch((err: unknown) =>
          context.log.warn({ err }, 'could not prune whatsapp messages'),
        );
      pruneTimer = setInterval(prune, 3_600_000);
      pruneTimer.unref();
      templateTimer = setInterval(() => void templating.checkPending(), TEMPLATE_CHECK_MS);
      templateTimer.unref();
      // A linked device is one socket on one node: the others hand it their sends (issue 26 §2).
      handoffs = new Handoffs(
        { db: context.db, listen: context.listen, log: context.log },
        WHATSAPP,
        (chatbotId) => {
          const conn = connections.get(chatbotId);
          if (conn?.backend !== 'baileys' || !conn.session.open) return undefined;
          return async (chatId, message) => {
            const idioma = (await connectionOf(need().db, chatbotId))?.idioma;
            await deliver(conn.session, chatbotId, chatId, message, languageCode(idioma));
            return undefined;
          };
        },
      );
      // Not awaited: start-up does not wait on the database (PGlite boots meanwhile, cold start);
      // until the LISTEN is in place an asking node's own check every second finds the outcome.
      handoffs
        .start()
        .catch((err: unknown) => context.log.warn({ err }, 'could not listen for whatsapp handoffs'));
    },

    async acceptMessage(chatbotId, message) {
      const { ctx } = need();
      const result = await ctx.inbox.accept({
        channel: WHATSAPP,
        chatbotId,
        updateKey:
          message.backend === 'baileys' ? `${message.chatId}:${message.waMessageId}` : message.waMessageId,
        chatId: message.chatId,
        payload: message,
      });
      adapter.touch(chatbotId);
      return result;
    },

    async send(chatbotId, chatId, message, to) {
      const transport = transportOf(chatbotId);
      if (!transport) {
        // A linked device held by another node: that node sends it, and its outcome is this call's.
        // Held by none for a moment (a node taking over): queued, sent by the next holder.
        const row = await connectionOf(need().db, chatbotId);
        if (row?.backend === 'baileys' && row.status === 'linked' && handoffs) {
          const held =
            row.holder !== null &&
            row.lease_until !== null &&
            new Date(row.lease_until).getTime() > Date.now();
          return handoffs.handOff(chatbotId, chatId, message, held ? 20_000 : 0);
        }
        throw new Error(`whatsapp bot ${chatbotId} is not connected`);
      }
      // The bot's language for the list button's texts: the engine's, or the stored one.
      const idioma = to ? to.bot.idioma : (await connectionOf(need().db, chatbotId))?.idioma;
      // Issue 28: outside the Cloud API's 24-hour window, a template (or a held owner's reply).
      if (transport.backend === 'cloud' && !to?.inbound && !(await transport.inWindow(chatId)))
        if (
          await templating.outsideWindow(
            transport,
            chatbotId,
            chatId,
            message,
            to?.sender ?? 'bot',
            languageCode(idioma),
          )
        )
          return;
      await deliver(transport, chatbotId, chatId, message, languageCode(idioma));
    },

    /** Read receipt and "typing…" until the turn ends (each transport renews it itself). */
    typing(chatbotId, chatId, inbound) {
      return transportOf(chatbotId)?.typing({ waMessageId: inbound.messageId }, chatId);
    },

    async downloadMedia(chatbotId, channelFileId) {
      const conn = connections.get(chatbotId);
      if (!conn) throw new Error(`whatsapp bot ${chatbotId} is not connected`);
      return conn.backend === 'baileys'
        ? conn.session.downloadMedia(channelFileId)
        : conn.transport.downloadMedia(channelFileId);
    },

    async stop() {
      clearInterval(pruneTimer);
      clearInterval(templateTimer);
      await handoffs?.stop();
      await Promise.allSettled(
        [...connections.keys()].map((id) => adapter.connections.disconnect(id, 'shutdown')),
      );
    },

    routes: webhookRoutes(() => adapter),
    connections: {
      configSchema: WhatsAppConfig,

      configured: () => whatsappBotIds(need().db),

      connected: () => [...connections.keys()],

      async connect(chatbotId) {
        const { ctx, settings, db } = need();
        if (connections.has(chatbotId)) return;
        const row = await connectionOf(db, chatbotId);
        if (!row?.backend) return;
        if (row.backend === 'cloud') {
          if (row.status !== 'active' || !row.phone_number_id || !row.meta_token) return;
          let token: string;
          try {
            token = ctx.secrets.decrypt(row.meta_token);
          } catch {
            await recordError(chatbotId, 'stored token unreadable (CHARLA_SECRET changed?)');
            return;
          }
          const graph = adapter.graph(token);
          connections.set(chatbotId, {
            backend: 'cloud',
            phoneNumberId: row.phone_number_id,
            graph,
            transport: cloudTransport(chatbotId, row.phone_number_id, graph),
          });
          await ctx.inbox.recover(WHATSAPP, chatbotId);
          return;
        }
        if (row.status !== 'linking' && row.status !== 'linked') return;
        // A web node (CHARLA_ROLE=web) never holds the socket: its sends are handed to the worker that does.
        if (ctx.role === 'web') return;
        const session: BaileysSession = new BaileysSession({
          lib: await baileys(),
          db,
          chatbotId,
          holder,
          settings,
          sealer: ctx.secrets,
          log: ctx.log,
          linking: row.status === 'linking',
          onMessage: async (message) => {
            await adapter.acceptMessage(chatbotId, message);
          },
          onOpen: () => {
            ctx.inbox
              .recover(WHATSAPP, chatbotId)
              .catch((err: unknown) => ctx.log.warn({ err, chatbotId }, 'whatsapp recovery failed'));
            // Sends handed off while no node held this device go out now.
            handoffs
              ?.sweep(chatbotId)
              .catch((err: unknown) =>
                ctx.log.warn({ err, chatbotId }, 'could not send handed-off messages'),
              );
          },
          onEnded: (reason: SessionEnd) => {
            const current = connections.get(chatbotId);
            if (current?.backend === 'baileys' && current.session === session) connections.delete(chatbotId);
            ctx.log.info({ chatbotId, reason }, 'whatsapp session ended in this process');
          },
        });
        // In the map before the socket opens: its first events may already need the connection.
        connections.set(chatbotId, { backend: 'baileys', session });
        let started = false;
        try {
          started = await session.start();
        } catch (err) {
          await recordError(chatbotId, `no se pudo abrir la sesión: ${(err as Error).message}`);
        }
        if (!started && connections.get(chatbotId)?.backend === 'baileys') {
          const current = connections.get(chatbotId);
          if (current?.backend === 'baileys' && current.session === session) connections.delete(chatbotId);
        }
      },

      async disconnect(chatbotId, reason) {
        const conn = connections.get(chatbotId);
        if (!conn) return;
        connections.delete(chatbotId);
        if (conn.backend === 'baileys') await conn.session.stop(reason);
      },

      async handleUpdate(row) {
        const { ctx, db } = need();
        const conn = connections.get(row.chatbotId);
        if (!conn) throw new DeferUpdate('whatsapp bot not connected in this process');
        const p = row.payload as WaInbound;
        const bot = await connectionOf(db, row.chatbotId);
        if (!bot) return; // the bot was deleted
        await touchContact(db, {
          chatbotId: bot.id,
          waId: p.chatId,
          phoneNumber: p.phone,
          pushName: p.pushName,
          at: new Date(p.timestamp * 1000),
        });
        if (p.raw)
          await storeIncoming(db, {
            chatbotId: bot.id,
            messageId: p.waMessageId,
            chatId: p.chatId,
            content: p.raw,
          });
        // Issue 28: what waited for this follower's window goes out before the bot answers.
        if (conn.backend === 'cloud')
          await templating.deliverWaiting(conn.transport, bot.id, p.chatId, languageCode(bot.idioma));
        try {
          await answer(bot, p, ctx.now());
        } catch (err) {
          // WhatsApp refused for good (outside the 24-hour window, a bad request): retrying would
          // only repeat what went out. Recorded for the owner; the update counts as handled.
          if (!(err instanceof PermanentSendError)) throw err;
          await recordError(row.chatbotId, err.message);
        }
      },

      health: (chatbotId) =>
        whatsappHealth(
          { ...need(), connections, lastUpdate, cloudChecks, graph: (token) => adapter.graph(token) },
          chatbotId,
        ),
    },

    apiRoutes: whatsappApiRoutes(() => adapter),
    templates: templating,

    settings: () => need().settings,
    context: () => need().ctx,
    db: () => need().db,
    session: (chatbotId) => {
      const c = connections.get(chatbotId);
      return c?.backend === 'baileys' ? c.session : undefined;
    },
    async cloudNumber(phoneNumberId) {
      return (await cloudCache.fetch(phoneNumberId))?.value;
    },
    invalidateCloud: () => {
      cloudCache.clear();
      cloudChecks.clear();
    },
    verifyToken: () => {
      const { ctx, settings } = need();
      return (
        settings.WHATSAPP_VERIFY_TOKEN ?? ctx.secrets.derive('whatsapp-verify-token', 'cloud').slice(0, 32)
      );
    },
    graph: (token) =>
      new Graph(need().settings.WHATSAPP_GRAPH_URL, need().settings.WHATSAPP_GRAPH_VERSION, token),
    recordError,
    touch: (chatbotId) => {
      const now = new Date();
      lastUpdate.set(chatbotId, now);
      if (now.getTime() - (touched.get(chatbotId) ?? 0) < TOUCH_EVERY_MS) return;
      touched.set(chatbotId, now.getTime());
      void touchConnection(need().db, chatbotId, now).catch(() => {});
    },
  };
  return adapter;
}
