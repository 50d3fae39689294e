/**
 * A stand-in for WhatsApp behind Baileys' module boundary (issue 13: "a fake `makeWASocket`"):
 * the adapter gets the real `@whiskeysockets/baileys` helpers (`initAuthCreds`, `BufferJSON`,
 * `proto`, the JID functions, the cacheable key store) with `makeWASocket` replaced by sockets
 * that behave as WhatsApp's do towards a client:
 *
 * - a socket without paired creds emits QR codes (`connection.update { qr }`); {@link FakeWhatsApp.scan}
 *   pairs it like a phone scanning the code: the creds get `me`, `creds.update` and
 *   `isNewLogin` are emitted, and the server closes the stream with 515 (restart required);
 * - a socket with paired creds opens (`connection: 'open'`), writes a signal session through the
 *   auth state's key store as Baileys does, and receives what {@link FakeWhatsApp.receive} sends;
 * - a second open socket on the same session makes the server close the older one with 440
 *   ("connection replaced") and the overlap is recorded in `violations`;
 * - `sendMessage` records every message and answers the `WAMessage` Baileys would;
 *   `logout()` closes with 401; `downloadMediaMessage` serves bytes the test registered;
 * - with {@link FakeWhatsApp.failBeforeQr} set, an unpaired socket closes before any QR code (the
 *   network is down: issue 28 §3).
 */
import { EventEmitter } from 'node:events';
import type { BaileysLib, WAMessage } from '../../adapters/whatsapp/baileys/lib.ts';

type SocketConfig = Parameters<BaileysLib['makeWASocket']>[0];

/** A close error as Baileys emits it (a Boom with `output.statusCode`). */
function closeError(code: number, message: string): Error {
  return Object.assign(new Error(message), { output: { statusCode: code } });
}

let messageCounter = 0;

export class FakeSocket {
  readonly ev = new EventEmitter();
  readonly sent: Array<{ jid: string; content: Record<string, unknown>; id: string }> = [];
  readonly presence: Array<{ type: string; jid: string | undefined }> = [];
  readonly read: string[] = [];
  state: 'connecting' | 'open' | 'closed' = 'connecting';
  user: { id: string } | undefined;
  qrShown = 0;
  pairingPhones: string[] = [];

  constructor(
    readonly config: SocketConfig,
    private readonly hub: FakeWhatsApp,
    readonly index: number,
  ) {}

  get authState() {
    return this.config.auth;
  }

  /** The session this socket belongs to (its noise key), stable across restarts. */
  get sessionId(): string {
    return Buffer.from(this.config.auth.creds.noiseKey.public).toString('base64');
  }

  /** Paired creds have `me` and the account signature the phone gave at the scan. */
  get paired(): boolean {
    const creds = this.config.auth.creds as { me?: { id?: string }; account?: unknown };
    return Boolean(creds.me?.id && creds.account);
  }

  private emit(event: string, data: unknown) {
    this.ev.emit(event, data);
  }

  /** What WhatsApp does when the socket connects. */
  async boot(): Promise<void> {
    this.emit('connection.update', { connection: 'connecting' });
    await new Promise((r) => setTimeout(r, 5));
    if (this.state === 'closed') return;
    const failure = this.hub.failBeforeQr;
    if (failure && !this.paired) {
      this.close(failure.code, failure.message);
      return;
    }
    if (!this.paired) {
      this.qrShown++;
      this.emit('connection.update', { qr: `QR-${this.index}-${this.qrShown}` });
      return;
    }
    const other = this.hub.openSocketOf(this.sessionId);
    if (other && other !== this) {
      this.hub.violations.push(`socket ${this.index} opened while socket ${other.index} was open`);
      other.close(440, 'Stream Errored (conflict)');
    }
    this.state = 'open';
    this.user = { id: this.config.auth.creds.me!.id };
    // Baileys stores signal sessions through the key store as it talks to WhatsApp.
    await this.config.auth.keys.set({
      session: { [`peer-${this.index}.0`]: Buffer.from([1, 2, this.index]) },
    });
    this.emit('connection.update', { connection: 'open', isOnline: true });
  }

  /** The server closes the stream with a status code. */
  close(code: number, message = 'closed'): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.emit('connection.update', {
      connection: 'close',
      lastDisconnect: { error: closeError(code, message), date: new Date() },
    });
  }

  /** Shows the next QR code (WhatsApp rotates them). */
  nextQr(): void {
    this.qrShown++;
    this.emit('connection.update', { qr: `QR-${this.index}-${this.qrShown}` });
  }

  // ---------------------------------------------------------------- the client API Baileys offers

  async sendMessage(jid: string, content: Record<string, unknown>): Promise<WAMessage> {
    if (this.state !== 'open') throw closeError(428, 'Connection Closed');
    const id = `BAE5${String(++messageCounter).padStart(12, '0')}`;
    this.sent.push({ jid, content, id });
    const message =
      typeof content.text === 'string'
        ? { conversation: content.text }
        : content.image
          ? {
              imageMessage: {
                caption: (content.caption as string) ?? null,
                mimetype: content.mimetype as string,
              },
            }
          : content.video
            ? {
                videoMessage: {
                  caption: (content.caption as string) ?? null,
                  mimetype: content.mimetype as string,
                },
              }
            : content.audio
              ? { audioMessage: { ptt: Boolean(content.ptt), mimetype: content.mimetype as string } }
              : {
                  documentMessage: {
                    fileName: content.fileName as string,
                    mimetype: content.mimetype as string,
                  },
                };
    return {
      key: { remoteJid: jid, fromMe: true, id },
      message,
      messageTimestamp: Math.floor(Date.now() / 1000),
    } as WAMessage;
  }

  async sendPresenceUpdate(type: string, jid?: string): Promise<void> {
    this.presence.push({ type, jid });
  }

  async readMessages(keys: Array<{ id?: string | null }>): Promise<void> {
    for (const k of keys) if (k.id) this.read.push(k.id);
  }

  async requestPairingCode(phone: string): Promise<string> {
    this.pairingPhones.push(phone);
    return 'ABCD1234';
  }

  async logout(): Promise<void> {
    this.close(401, 'Intentional Logout');
  }

  async end(error: Error | undefined): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
  }

  async updateMediaMessage(message: WAMessage): Promise<WAMessage> {
    return message;
  }
}

/** The fake WhatsApp: the sockets the adapter opened, and what a phone and followers do. */
export class FakeWhatsApp {
  readonly sockets: FakeSocket[] = [];
  /** Two sockets of one session open at once (must stay empty). */
  readonly violations: string[] = [];
  /** Bytes of media followers sent, by message id. */
  readonly media = new Map<string, Buffer>();
  /**
   * When set, WhatsApp cannot be reached (issue 28 §3): a socket without paired creds closes with
   * this code and message before any QR code (e.g. 408 "Connection was lost", a WebSocket error).
   */
  failBeforeQr: { code: number; message: string } | null = null;
  readonly lib: BaileysLib;

  constructor(real: BaileysLib) {
    const makeWASocket = ((config: SocketConfig) => {
      const socket = new FakeSocket(config, this, this.sockets.length + 1);
      this.sockets.push(socket);
      void socket.boot();
      return socket;
    }) as unknown as BaileysLib['makeWASocket'];
    const downloadMediaMessage = (async (message: WAMessage) => {
      const bytes = this.media.get(message.key.id ?? '');
      if (!bytes) throw new Error('media not found');
      return bytes;
    }) as unknown as BaileysLib['downloadMediaMessage'];
    this.lib = { ...real, makeWASocket, downloadMediaMessage };
  }

  /** The open socket of a session, if any. */
  openSocketOf(sessionId: string): FakeSocket | undefined {
    return this.sockets.find((s) => s.state === 'open' && s.sessionId === sessionId);
  }

  /** The newest socket (optionally only open ones). */
  latest(filter: (s: FakeSocket) => boolean = () => true): FakeSocket | undefined {
    return [...this.sockets].reverse().find(filter);
  }

  /**
   * The phone scans the QR code of `socket`: the creds are paired to `phone`, Baileys emits
   * `creds.update` and `isNewLogin`, then the server asks for a restart (515).
   */
  scan(socket: FakeSocket, phone: string): void {
    const creds = socket.config.auth.creds as unknown as Record<string, unknown>;
    creds.me = { id: `${phone}:12@s.whatsapp.net`, lid: `99${phone}:12@lid`, name: 'Negocio' };
    creds.account = { details: Buffer.from('account-details'), accountSignatureKey: Buffer.from([7, 7, 7]) };
    creds.platform = 'android';
    socket.ev.emit('creds.update', { me: creds.me, account: creds.account, platform: creds.platform });
    socket.ev.emit('connection.update', { isNewLogin: true, qr: undefined });
    setTimeout(() => socket.close(515, 'Stream Errored (restart required)'), 5);
  }

  /** A follower's message reaches the open socket (`messages.upsert`, type `notify`). */
  receive(
    socket: FakeSocket,
    from: { jid: string; alt?: string; name?: string },
    message: Record<string, unknown>,
    id = `3EB0${String(++messageCounter).padStart(16, '0')}`,
  ): string {
    socket.ev.emit('messages.upsert', {
      type: 'notify',
      messages: [
        {
          key: { remoteJid: from.jid, fromMe: false, id, ...(from.alt ? { remoteJidAlt: from.alt } : {}) },
          message,
          messageTimestamp: Math.floor(Date.now() / 1000),
          pushName: from.name ?? 'Seguidor',
        },
      ],
    });
    return id;
  }
}
