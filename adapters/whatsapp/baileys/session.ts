/**
 * One linked device (Baileys socket) of one bot, in the process that holds its lease (issue 13).
 *
 * - **One socket per session across processes**: the session starts only when this process takes
 *   the lease in `whatsapp_connections` (free, ours, or expired); the lease is renewed every third
 *   of `WHATSAPP_LEASE_MS` and every auth write is fenced by it. A process that loses it closes its
 *   socket at once, so two sockets never loop on "connection replaced" (440).
 * - **Linking**: a session without credentials shows QR codes (stored for the dashboard with their
 *   expiry: 60 s for the first, 20 s for the next, as Baileys rotates them) or a pairing code for a
 *   phone number. After the scan WhatsApp closes with "restart required" (515): the pending auth
 *   writes are flushed and a new socket opens with the new creds. When the QR codes run out (408
 *   after QR codes were shown) the linking is `expired` ("QR expired"); any other close before the
 *   scan (network, 408 before a QR, stream error) ends it `expired` with the network text (issue
 *   28 §3). Either way the owner retries.
 * - **Reconnecting**: every other close reopens with exponential backoff (1 s doubling up to
 *   `WHATSAPP_RECONNECT_MAX_MS`) except "logged out" (401), where every stored credential is
 *   deleted and the owner is told to link again (a half-kept auth state can never pair again).
 * - **Database outages** (issue 24 §1) end nothing: a lease renewal or a reconnect that cannot reach
 *   the database keeps the session (the auth writes stay fenced by the lease) and tries again at its
 *   next tick; a close whose error cannot be recorded still schedules its reconnect.
 * - **Sending** is paced (`WHATSAPP_SEND_INTERVAL_MS` between two messages of one number) and each
 *   message is stored, so Baileys' `getMessage` can answer a retry receipt from the store.
 */
import { reportHealth } from '../../../engine/channels/health-report.ts';
import type { OutboundMessage } from '../../../engine/registry/index.ts';
import type { Attachment } from '../../../engine/schemas.ts';
import { storeOutgoing } from '../messages.ts';
import {
  acquireLease,
  clearConnectionError,
  endSession,
  markLinked,
  recordConnectionError,
  releaseLease,
  renewLease,
  setLinkingCode,
} from '../queries.ts';
import type { FileSource, WaInbound, WaTransport } from '../shared/types.ts';
import { fillText, WHATSAPP_ERRORS } from '../texts.ts';
import { openSqlAuthState, type SqlAuthState } from './auth-store.ts';
import { downloadStoredMedia, normalizeBaileys } from './inbound.ts';
import type { AnyMessageContent, WASocket } from './lib.ts';
import { attachmentContent, findSentMessage, PacedSender, showTyping, voiceContent } from './outbound.ts';
import { closeCode, linkEndError, type SessionDeps, type SessionEnd } from './session-types.ts';

export type { SessionEnd };

/** First QR code lifetime, then the next ones' (Baileys' `qrTimeout` defaults), ms. */
const FIRST_QR_MS = 60_000;
const NEXT_QR_MS = 20_000;
/** How often "typing…" is repeated while the LLM works, ms (WhatsApp drops it after ~25 s). */
const TYPING_EVERY_MS = 10_000;
/** How long a reply waits for a reconnecting socket before the inbox retries it, ms. */
const WAIT_OPEN_MS = 20_000;

export class BaileysSession implements WaTransport {
  readonly backend = 'baileys' as const;
  /** Linked devices have no interactive lists: the engine's numbered text is the offer. */
  readonly listBodyMax = 0;
  private sock: WASocket | null = null;
  private auth: SqlAuthState | null = null;
  private stopping = false;
  private ended = false;
  private attempts = 0;
  private qrCount = 0;
  private linking: boolean;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private leaseTimer: NodeJS.Timeout | undefined;
  private readonly sender: PacedSender;
  private openWaiters: Array<() => void> = [];
  /** True while the socket is open (receiving). */
  open = false;

  constructor(private readonly deps: SessionDeps) {
    this.linking = deps.linking;
    this.sender = new PacedSender({
      intervalMs: deps.settings.WHATSAPP_SEND_INTERVAL_MS,
      socket: () => this.openSocketOrThrow(),
      stored: (sent) =>
        storeOutgoing(deps.db, {
          chatbotId: deps.chatbotId,
          messageId: sent.id,
          chatId: sent.chatId,
          content: JSON.stringify(sent.message, deps.lib.BufferJSON.replacer),
        }),
    });
  }

  /** The socket (tests and the pairing code). */
  get socket(): WASocket | null {
    return this.sock;
  }

  /**
   * Takes the lease and opens the socket.
   * @returns false when another process holds the session (nothing is opened).
   */
  async start(): Promise<boolean> {
    const { db, chatbotId, holder, settings } = this.deps;
    if (!(await acquireLease(db, chatbotId, holder, settings.WHATSAPP_LEASE_MS))) return false;
    this.leaseTimer = setInterval(() => void this.renew(), Math.max(200, settings.WHATSAPP_LEASE_MS / 3));
    this.leaseTimer.unref();
    try {
      await this.openSocket();
    } catch (err) {
      await this.finish('stopped');
      throw err;
    }
    return true;
  }

  /**
   * Closes the socket. `removed` also logs the device out of WhatsApp (it leaves the phone's list
   * of linked devices); `paused` and `shutdown` keep the session for the next start. The lease is
   * released so another process (or the next start) takes over at once.
   */
  async stop(reason: 'paused' | 'removed' | 'shutdown'): Promise<void> {
    if (this.ended) return;
    this.stopping = true;
    const sock = this.sock;
    if (reason === 'removed' && sock && this.open) await sock.logout().catch(() => {});
    else await sock?.end(undefined)?.catch?.(() => {});
    await this.finish('stopped');
  }

  /**
   * Asks WhatsApp for a pairing code for `phone` (digits with country code), the alternative to
   * the QR code; waits for the socket to be ready for it (its first QR code).
   * @throws Error when the session is not linking or the socket is not ready within 20 s.
   */
  async pairingCode(phone: string): Promise<string> {
    if (!this.linking) throw new Error(WHATSAPP_ERRORS.notLinking);
    const deadline = Date.now() + 20_000;
    while (this.qrCount === 0 && Date.now() < deadline && !this.ended) await sleep(100);
    const sock = this.sock;
    if (!sock || this.qrCount === 0) throw new Error(WHATSAPP_ERRORS.pairingUnavailable);
    const code = await sock.requestPairingCode(phone);
    await setLinkingCode(this.deps.db, this.deps.chatbotId, { pairingCode: code });
    return code;
  }

  // ------------------------------------------------------------------ socket lifecycle

  private async openSocket(): Promise<void> {
    const { lib, db, chatbotId, holder, settings, sealer, log } = this.deps;
    this.auth = await openSqlAuthState(
      lib,
      db,
      chatbotId,
      sealer,
      { holder, leaseMs: settings.WHATSAPP_LEASE_MS },
      log,
    );
    const auth = this.auth;
    const logger = log.child({ component: 'baileys' }, { level: 'warn' });
    this.qrCount = 0;
    const sock = lib.makeWASocket({
      auth: { creds: auth.state.creds, keys: lib.makeCacheableSignalKeyStore(auth.state.keys, logger) },
      logger,
      // The owner's phone keeps its notifications; the bot has no use for history.
      markOnlineOnConnect: false,
      syncFullHistory: false,
      shouldSyncHistoryMessage: () => false,
      generateHighQualityLinkPreview: false,
      getMessage: (key) => findSentMessage(this.deps, key.id),
    });
    this.sock = sock;
    sock.ev.on('creds.update', () => {
      auth
        .saveCreds()
        .catch((err: unknown) => log.warn({ err, chatbotId }, 'could not store whatsapp creds'));
    });
    sock.ev.on('connection.update', (update) => {
      this.onConnectionUpdate(sock, update).catch((err: unknown) =>
        log.error({ err, chatbotId }, 'whatsapp connection update failed'),
      );
    });
    sock.ev.on('messages.upsert', (upsert) => {
      if (sock !== this.sock || upsert.type !== 'notify') return;
      for (const message of upsert.messages) {
        const normalized = normalizeBaileys(lib, message);
        if (!normalized) continue;
        this.deps
          .onMessage(normalized)
          .catch((err: unknown) => log.error({ err, chatbotId }, 'could not store a whatsapp message'));
      }
    });
  }

  private async onConnectionUpdate(
    sock: WASocket,
    update: Parameters<Parameters<WASocket['ev']['on']>[1]>[0] & Record<string, unknown>,
  ): Promise<void> {
    if (sock !== this.sock || this.ended) return;
    const { db, chatbotId, log } = this.deps;
    const u = update as {
      connection?: 'open' | 'connecting' | 'close';
      qr?: string;
      isNewLogin?: boolean;
      lastDisconnect?: { error?: unknown };
    };
    if (u.qr && this.linking) {
      this.qrCount++;
      const ttl = this.qrCount === 1 ? FIRST_QR_MS : NEXT_QR_MS;
      await setLinkingCode(db, chatbotId, { qr: u.qr, qrExpiresAt: new Date(Date.now() + ttl) });
    }
    if (u.isNewLogin) {
      // Scanned: the QR is spent; WhatsApp restarts the stream (515) and the next socket opens linked.
      await setLinkingCode(db, chatbotId, { qr: null, qrExpiresAt: null, pairingCode: null });
    }
    if (u.connection === 'open') {
      this.open = true;
      this.attempts = 0;
      if (this.linking) {
        const me = sock.user?.id ?? this.auth?.state.creds.me?.id;
        const number = me ? (this.deps.lib.jidDecode(me)?.user ?? me) : '';
        await markLinked(db, chatbotId, number);
        this.linking = false;
        log.info({ chatbotId }, 'whatsapp number linked');
      }
      // Open whether or not the database hears of it now (an outage must not hold up the replies).
      void reportHealth({ db, log }, { chatbotId, channel: 'whatsapp', ok: true });
      await clearConnectionError(db, chatbotId).catch((err: unknown) =>
        log.warn({ err, chatbotId }, 'could not clear the whatsapp connection error'),
      );
      for (const wake of this.openWaiters.splice(0)) wake();
      this.deps.onOpen();
    }
    if (u.connection === 'close') {
      this.open = false;
      if (this.stopping) return;
      await this.onClose(closeCode(u.lastDisconnect?.error), u.lastDisconnect?.error);
    }
  }

  private async onClose(code: number | undefined, error: unknown): Promise<void> {
    const { db, chatbotId, lib, log } = this.deps;
    const reasons = lib.DisconnectReason;
    const message = `${code ?? '—'}: ${(error as Error | undefined)?.message ?? 'connection closed'}`;
    log.info({ chatbotId, code, linking: this.linking }, 'whatsapp socket closed');
    if (code === reasons.loggedOut) {
      // Every credential goes: a logged-out number pairs again only from a clean state.
      await this.auth?.flush();
      await endSession(db, chatbotId, 'logged_out', WHATSAPP_ERRORS.loggedOut);
      await reportHealth(
        { db, log },
        { chatbotId, channel: 'whatsapp', ok: false, reason: WHATSAPP_ERRORS.loggedOut },
      );
      await this.finish('logged_out', false);
      return;
    }
    if (code === reasons.restartRequired) {
      // After the scan: the new creds must be stored before the new socket reads them.
      await this.auth?.flush();
      await this.reopen();
      return;
    }
    const paired = Boolean(this.auth?.state.creds.account);
    const failure = this.linking ? linkEndError(code, error, this.qrCount, paired, reasons.timedOut) : null;
    if (failure) {
      await endSession(db, chatbotId, 'expired', failure);
      await this.finish('expired', false);
      return;
    }
    // The reconnect is scheduled even when the database cannot record the error (an outage).
    await recordConnectionError(
      db,
      chatbotId,
      code === reasons.connectionReplaced ? WHATSAPP_ERRORS.replaced : message,
    ).catch((err: unknown) => log.warn({ err, chatbotId }, 'could not record the whatsapp connection error'));
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    const max = this.deps.settings.WHATSAPP_RECONNECT_MAX_MS;
    this.attempts++;
    const base = Math.min(max, 1000 * 2 ** Math.min(this.attempts - 1, 20));
    const delay = Math.min(max, base * (0.8 + Math.random() * 0.4));
    this.reconnectTimer = setTimeout(() => void this.reopen(), delay);
    this.reconnectTimer.unref();
  }

  private async reopen(): Promise<void> {
    if (this.stopping || this.ended) return;
    const { db, chatbotId, holder, settings, log } = this.deps;
    let held: boolean;
    try {
      held = await renewLease(db, chatbotId, holder, settings.WHATSAPP_LEASE_MS);
    } catch (err) {
      // The database, not the lease, is lost: try again later (the lease is ours until it ends).
      log.warn({ err, chatbotId }, 'could not renew the whatsapp session lease before reconnecting');
      this.scheduleReconnect();
      return;
    }
    if (!held) {
      await this.finish('lease_lost');
      return;
    }
    try {
      await this.openSocket();
    } catch (err) {
      log.warn({ err, chatbotId }, 'could not reopen the whatsapp socket');
      await recordConnectionError(db, chatbotId, (err as Error).message).catch(() => {});
      this.scheduleReconnect();
    }
  }

  private async renew(): Promise<void> {
    if (this.ended) return;
    const { db, chatbotId, holder, settings, log } = this.deps;
    const held = await renewLease(db, chatbotId, holder, settings.WHATSAPP_LEASE_MS).catch((err: unknown) => {
      log.warn({ err, chatbotId }, 'could not renew the whatsapp session lease');
      return true; // a database hiccup is not a loss; the fence on writes still holds
    });
    if (!held) {
      log.warn({ chatbotId }, 'whatsapp session taken over by another process; closing this socket');
      await this.finish('lease_lost');
    }
  }

  /** Ends the session here: timers, socket, lease; tells the adapter. */
  private async finish(reason: SessionEnd, release = true): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    this.stopping = true;
    this.open = false;
    clearInterval(this.leaseTimer);
    clearTimeout(this.reconnectTimer);
    for (const wake of this.openWaiters.splice(0)) wake();
    const sock = this.sock;
    this.sock = null;
    if (reason !== 'stopped') await sock?.end(undefined)?.catch?.(() => {});
    await this.auth?.flush();
    if (release && reason !== 'lease_lost')
      await releaseLease(this.deps.db, this.deps.chatbotId, this.deps.holder).catch(() => {});
    this.deps.onEnded(reason);
  }

  // ------------------------------------------------------------------ sending

  /** Waits for an open socket (a reconnect in progress), up to {@link WAIT_OPEN_MS}. */
  private async openSocketOrThrow(): Promise<WASocket> {
    if (!this.open && !this.ended) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, WAIT_OPEN_MS);
        timer.unref();
        this.openWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (!this.open || !this.sock) throw new Error('WhatsApp no está conectado en este momento');
    return this.sock;
  }

  /** Sends one message, paced, and stores it for `getMessage` (./outbound.ts PacedSender). */
  private send(jid: string, content: AnyMessageContent): Promise<void> {
    return this.sender.send(jid, content);
  }

  typing(inbound: Pick<WaInbound, 'waMessageId'> | null, chatId: string): () => void {
    return this.sock ? showTyping(this.sock, inbound, chatId, TYPING_EVERY_MS) : () => {};
  }

  sendText(chatId: string, text: string): Promise<void> {
    return this.send(chatId, { text });
  }

  async sendChoices(): Promise<'sent' | 'unsupported'> {
    return 'unsupported';
  }

  /** Sends a file as the message type its kind needs (./outbound.ts). */
  async sendAttachment(chatId: string, attachment: Attachment, source: FileSource): Promise<void> {
    const media = 'read' in source ? await source.read() : { url: source.url };
    const { content, captionFirst } = attachmentContent(attachment, media);
    if (captionFirst) await this.sendText(chatId, captionFirst);
    await this.send(chatId, content);
  }

  sendVoice(chatId: string, voice: NonNullable<OutboundMessage['voice']>): Promise<void> {
    return this.send(chatId, voiceContent(voice));
  }

  /** Downloads media a follower sent, from the stored message (./inbound.ts). */
  downloadMedia(channelFileId: string): Promise<{ data: Buffer; mime: string | null }> {
    return downloadStoredMedia(this.deps, this.sock, channelFileId);
  }

  /** The owner-readable description of a send failure. */
  static describe(err: unknown, chatId: string): string {
    return fillText(WHATSAPP_ERRORS.sendFailed, { chat: chatId, reason: (err as Error).message });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
