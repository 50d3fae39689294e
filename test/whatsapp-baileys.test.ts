/**
 * WhatsApp by linked device (issue 13), Baileys at its module boundary (test/servers/whatsapp-web.ts:
 * a fake `makeWASocket` with the real auth helpers), through the HTTP routes as the dashboard uses
 * them and the local OpenAI-format server as the LLM:
 * - the QR code shows with its expiry, a pairing code is the alternative, the scan links the number
 *   (515 then a new socket) and `whatsapp_number` is set;
 * - a conversation: text answered by the LLM to the follower's LID with "composing" shown, the
 *   phone number kept, files sent with the content shape their kind needs, a LIST as numbered text
 *   whose number picks the file, a voice note stored and asked for words, `getMessage` from the store;
 * - reconnect after 428, 408 and 515; 401 deletes every credential and tells the owner; QR codes that
 *   run out leave the linking `expired` and a retry starts over;
 * - a linking that cannot reach WhatsApp (408 before any QR, a WebSocket error, the connection lost
 *   while a QR shows) says so instead of "QR expired", and the owner retries (issue 28 §3);
 * - days gating: at 0 days the socket closes and the session stays; on renewal it comes back;
 * - two processes on one database never hold the same session, and a restart resumes without a QR.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as baileys from '@whiskeysockets/baileys';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhatsAppAdapter, type WhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import { WHATSAPP_ERRORS } from '../adapters/whatsapp/texts.ts';
import { MEDIA_RECEIVED } from '../engine/conversation/texts.ts';
import { ffmpegPath } from '../engine/media.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { createTestApp, fakeLlm } from './helpers/app.ts';
import { dialectsOf, testStore } from './helpers/db.ts';
import { type App, ownerWithBot, setDays, until, uploadFile, withInject } from './helpers/owners.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type FakeSocket, FakeWhatsApp } from './servers/whatsapp-web.ts';

const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));
const ENV = {
  WHATSAPP_SEND_INTERVAL_MS: '0',
  WHATSAPP_LEASE_MS: '1500',
  WHATSAPP_RECONNECT_MAX_MS: '200',
};

type Config = {
  whatsapp_number: string | null;
  status: string | null;
  linkFailure: 'network' | 'qrExpired' | null;
  connected: boolean;
  linking: { qr: string | null; qrExpiresAt: string | null; pairingCode: string | null } | null;
  health: { state: string; mode: string; lastError: string | null };
};

async function config(app: App, auth: string, botId: string): Promise<Config> {
  const res = await app.inject({
    method: 'GET',
    url: `/api/get-whatsapp-config?chatbotId=${botId}`,
    headers: { authorization: `Bearer ${auth}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as Config;
}

async function requestNumber(app: App, auth: string, botId: string, phoneNumber?: string) {
  return app.inject({
    method: 'POST',
    url: '/api/request-whatsapp-number',
    headers: { authorization: `Bearer ${auth}` },
    payload: { chatbotId: botId, ...(phoneNumber ? { phoneNumber } : {}) },
  });
}

/** Links a bot: request, wait for the QR, scan, wait for the linked socket. */
async function link(app: App, wa: FakeWhatsApp, auth: string, botId: string, phone: string) {
  expect((await requestNumber(app, auth, botId)).statusCode).toBe(200);
  const shown = await until(async () => (await config(app, auth, botId)).linking?.qr, 10_000, 'a QR code');
  const socket = wa.sockets.find((s) => s.state !== 'closed' && shown.startsWith(`QR-${s.index}-`))!;
  wa.scan(socket, phone);
  const open = await until(
    () => wa.latest((s) => s.state === 'open' && s.sessionId === socket.sessionId),
    10_000,
    'open',
  );
  await until(async () => (await config(app, auth, botId)).connected, 10_000, 'linked');
  return { first: socket, open };
}

/** Messages the bot sent to a chat on any socket. */
const sentTo = (wa: FakeWhatsApp, jid: string) =>
  wa.sockets.flatMap((s) => s.sent.filter((m) => m.jid === jid));

describe('WhatsApp linked devices (fake makeWASocket)', () => {
  let openai: FakeOpenAi;
  let app: App;
  let wa: FakeWhatsApp;
  let adapter: WhatsAppAdapter;

  beforeAll(async () => {
    openai = await startFakeOpenAi();
    wa = new FakeWhatsApp(baileys);
    adapter = createWhatsAppAdapter({ loadBaileys: async () => wa.lib });
    app = await withInject(
      await createTestApp('pglite', {
        llm: fakeLlm(openai.baseURL),
        env: ENV,
        supervisorIntervalMs: 200,
        adapters: [adapter as unknown as ChannelAdapter<never>],
      }),
    );
    await app.startChannels();
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
  });

  it('shows the QR with its expiry, offers a pairing code, links on the scan and answers a conversation', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'qr@example.com', {
      business_name: 'Casa Lola',
      idioma: 'Español',
    });
    const missing = await app.inject({
      method: 'POST',
      url: '/api/request-whatsapp-number',
      headers: { authorization: `Bearer ${auth}` },
      payload: {},
    });
    expect(missing.json()).toEqual({ error: 'Faltan datos para solicitar número de WhatsApp' });
    expect((await config(app, auth, botId)).health.state).toBe('disconnected');

    const started = Date.now();
    expect((await requestNumber(app, auth, botId)).json()).toMatchObject({
      status: 'linking',
      connected: false,
    });
    const linking = await until(
      async () => {
        const c = await config(app, auth, botId);
        return c.linking?.qr ? c.linking : null;
      },
      10_000,
      'QR',
    );
    expect(linking.qr).toMatch(/^QR-\d+-1$/);
    const expires = new Date(linking.qrExpiresAt!).getTime();
    expect(expires - started).toBeGreaterThan(50_000);
    expect(expires - started).toBeLessThan(70_000);
    const socket = wa.latest()!;
    socket.nextQr(); // WhatsApp rotates the code: the dashboard shows the new one
    await until(
      async () => (await config(app, auth, botId)).linking?.qr === `QR-${socket.index}-2`,
      5000,
      'next QR',
    );

    // The alternative: a pairing code for a phone number.
    const badPhone = await requestNumber(app, auth, botId, '12');
    expect(badPhone.json().error).toBe(WHATSAPP_ERRORS.badPhone);
    const paired = await requestNumber(app, auth, botId, '+34 600 111 222');
    expect(paired.statusCode, paired.body).toBe(200);
    expect(paired.json().linking.pairingCode).toBe('ABCD1234');
    expect(socket.pairingPhones).toEqual(['34600111222']);

    wa.scan(socket, '34600111222');
    await until(async () => (await config(app, auth, botId)).connected, 10_000, 'linked');
    const linked = await config(app, auth, botId);
    expect(linked).toMatchObject({
      whatsapp_number: '34600111222',
      status: 'linked',
      linking: null,
      health: { state: 'connected', mode: 'linked-device', lastError: null },
    });
    // 515 after the scan: a second socket opened with the paired creds, the first is closed.
    const open = wa.latest((s) => s.state === 'open')!;
    expect(open.index).toBeGreaterThan(socket.index);
    expect(socket.state).toBe('closed');

    // A follower writes from a LID with their phone number beside it.
    const follower = { jid: '123456789012345@lid', alt: '34699888777@s.whatsapp.net', name: 'Marta' };
    const id = wa.receive(open, follower, { conversation: '¿Abrís los domingos?' });
    const [reply] = await until(
      () => sentTo(wa, follower.jid).length > 0 && sentTo(wa, follower.jid),
      10_000,
      'reply',
    );
    expect(reply!.content).toEqual({ text: 'Respuesta: ¿Abrís los domingos?' });
    expect(open.presence).toContainEqual({ type: 'composing', jid: follower.jid });
    expect(open.presence.at(-1)).toEqual({ type: 'paused', jid: follower.jid });
    expect(open.read).toContain(id);
    const stored = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'user_id', 'channel'])
      .where('chatbot_id', '=', botId)
      .orderBy('id')
      .execute();
    expect(stored).toEqual([
      { sender: 'user', text: '¿Abrís los domingos?', user_id: follower.jid, channel: 'whatsapp' },
      { sender: 'bot', text: 'Respuesta: ¿Abrís los domingos?', user_id: follower.jid, channel: 'whatsapp' },
    ]);
    const contact = await adapter
      .db()
      .selectFrom('whatsapp_contacts')
      .selectAll()
      .where('chatbot_id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(contact).toMatchObject({ wa_id: follower.jid, phone_number: '34699888777', push_name: 'Marta' });
    const followers = await app.store.db
      .selectFrom('followers')
      .select(['external_id', 'username'])
      .where('chatbot_id', '=', botId)
      .execute();
    expect(followers).toEqual([{ external_id: follower.jid, username: 'Marta' }]);

    // Delivered again by WhatsApp (same id): answered once.
    wa.receive(open, follower, { conversation: '¿Abrís los domingos?' }, id);
    await new Promise((r) => setTimeout(r, 300));
    expect(sentTo(wa, follower.jid)).toHaveLength(1);

    // getMessage answers a retry receipt from the stored outgoing message, nothing on a miss.
    const again = await open.config.getMessage!({ id: reply!.id, remoteJid: follower.jid, fromMe: true });
    expect(again?.conversation).toBe('Respuesta: ¿Abrís los domingos?');
    expect(
      await open.config.getMessage!({ id: 'UNKNOWN', remoteJid: follower.jid, fromMe: true }),
    ).toBeUndefined();
    // The signal session the socket wrote is in the database (through the lease-fenced store).
    const keys = await adapter
      .db()
      .selectFrom('whatsapp_auth')
      .select('category')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(new Set(keys.map((k) => k.category))).toEqual(new Set(['creds', 'session']));
  });

  it('sends files with the shape their kind needs, a LIST as numbered text, and keeps follower media', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'files@example.com', {
      business_name: 'El Pato Pepe',
      idioma: 'Español',
    });
    const video = join(tmpdir(), `charla-wa-${Date.now()}.mp4`);
    execFileSync(ffmpegPath(), [
      '-y',
      '-loglevel',
      'error',
      '-f',
      'lavfi',
      '-i',
      'testsrc=size=160x120:rate=10',
      '-t',
      '1',
      '-pix_fmt',
      'yuv420p',
      video,
    ]);
    await uploadFile(app, auth, botId, 'carta.pdf', asset('carta-el-pato-pepe.pdf'), 'carta,menu');
    const photo = await uploadFile(
      app,
      auth,
      botId,
      'local.jpg',
      asset('local-el-pato-pepe.jpg'),
      'local,menu',
    );
    await uploadFile(app, auth, botId, 'saludo.ogg', asset('saludo-el-pato-pepe.ogg'), 'saludo');
    await uploadFile(app, auth, botId, 'paseo.mp4', readFileSync(video), 'paseo');
    const { open } = await link(app, wa, auth, botId, '34611000111');

    const cases: Array<[string, (c: Record<string, unknown>) => void]> = [
      [
        '¿Me mandas la carta?',
        (c) => {
          expect(c.mimetype).toBe('application/pdf');
          expect(c.fileName).toBe('carta.pdf');
          expect(
            Buffer.isBuffer(c.document) && (c.document as Buffer).equals(asset('carta-el-pato-pepe.pdf')),
          ).toBe(true);
        },
      ],
      [
        'una foto del local',
        (c) => {
          expect(
            Buffer.isBuffer(c.image) && (c.image as Buffer).equals(asset('local-el-pato-pepe.jpg')),
          ).toBe(true);
          expect(c.mimetype).toBe('image/jpeg');
        },
      ],
      [
        'quiero el saludo',
        (c) => {
          expect(c.ptt).toBe(true);
          expect(c.mimetype).toBe('audio/ogg; codecs=opus');
          expect((c.audio as Buffer).equals(asset('saludo-el-pato-pepe.ogg'))).toBe(true);
        },
      ],
      ['el vídeo del paseo', (c) => expect(c.mimetype).toBe('video/webm')],
    ];
    let n = 0;
    for (const [text, check] of cases) {
      const jid = `3460000000${n++}@s.whatsapp.net`;
      wa.receive(open, { jid }, { conversation: text });
      const messages = await until(() => sentTo(wa, jid).length >= 2 && sentTo(wa, jid), 10_000, text);
      expect(typeof messages[0]!.content.text).toBe('string'); // the words first
      const media = await until(() => sentTo(wa, jid).find((m) => !('text' in m.content)), 10_000, 'media');
      check(media.content);
    }

    // Two files share "menu": a numbered offer; "2" sends the second.
    const jid = '34600000099@s.whatsapp.net';
    wa.receive(open, { jid }, { conversation: 'menu' });
    const [offer] = await until(() => sentTo(wa, jid).length > 0 && sentTo(wa, jid), 10_000, 'offer');
    const offerText = String(offer!.content.text);
    const lines = offerText.split('\n').filter((l) => /^\d\. /.test(l));
    expect(lines.map((l) => l.slice(3)).sort()).toEqual(['carta.pdf', 'local.jpg']);
    const photoLine = lines.find((l) => l.endsWith('local.jpg'))!;
    wa.receive(open, { jid }, { conversation: photoLine.slice(0, 1) });
    const picked = await until(() => sentTo(wa, jid).find((m) => m.content.image), 10_000, 'picked file');
    expect((picked.content.image as Buffer).equals(asset('local-el-pato-pepe.jpg'))).toBe(true);
    expect(photo.file_name).toBe('local.jpg');

    // A voice note without words: stored with its media, answered with a request for words, and
    // its bytes readable through the channel.
    const voiceJid = '34600000098@s.whatsapp.net';
    const voiceId = wa.receive(
      open,
      { jid: voiceJid },
      { audioMessage: { ptt: true, mimetype: 'audio/ogg; codecs=opus', seconds: 3 } },
    );
    wa.media.set(voiceId, Buffer.from('OggS-voice-bytes'));
    const [asked] = await until(
      () => sentTo(wa, voiceJid).length > 0 && sentTo(wa, voiceJid),
      10_000,
      'media reply',
    );
    expect(asked!.content.text).toBe(MEDIA_RECEIVED.es.replace('{media}', 'nota de voz'));
    const userRow = await app.store.db
      .selectFrom('conversation_messages')
      .select('meta')
      .where('chatbot_id', '=', botId)
      .where('user_id', '=', voiceJid)
      .where('sender', '=', 'user')
      .executeTakeFirstOrThrow();
    expect(userRow.meta).toMatchObject({ received: [{ kind: 'voice', channelFileId: voiceId }] });
    const media = await adapter.downloadMedia!(botId, voiceId);
    expect(media.data.toString()).toBe('OggS-voice-bytes');
    expect(media.mime).toBe('audio/ogg; codecs=opus');
  });

  it('reconnects after 428, 408 and 515; 401 deletes the credentials; expired QR codes can be retried', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'reconnect@example.com', {
      business_name: 'Reconecta',
    });
    const { open } = await link(app, wa, auth, botId, '34622000222');
    let current: FakeSocket = open;
    for (const code of [428, 408, 515]) {
      const before = wa.sockets.length;
      current.close(code, `closed ${code}`);
      current = await until(
        () =>
          wa.sockets.length > before &&
          wa.latest((s) => s.state === 'open' && s.sessionId === open.sessionId),
        10_000,
        `reconnect after ${code}`,
      );
      await until(async () => (await config(app, auth, botId)).health.state === 'connected', 5000, 'healthy');
    }
    expect((await config(app, auth, botId)).whatsapp_number).toBe('34622000222');
    expect(wa.violations).toEqual([]);

    // Logged out from the phone: every credential goes and the owner is told to link again.
    const before = wa.sockets.length;
    current.close(401, 'Connection Failure');
    await until(async () => (await config(app, auth, botId)).status === 'logged_out', 5000, 'logged out');
    const after = await config(app, auth, botId);
    expect(after).toMatchObject({
      whatsapp_number: null,
      connected: false,
      health: { lastError: WHATSAPP_ERRORS.loggedOut },
    });
    const left = await adapter
      .db()
      .selectFrom('whatsapp_auth')
      .select('key_id')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(left).toEqual([]);
    await new Promise((r) => setTimeout(r, 600));
    expect(wa.sockets.length).toBe(before); // no reconnection loop

    // Linking again starts from fresh creds; QR codes that run out (408) leave it expired.
    expect((await requestNumber(app, auth, botId)).statusCode).toBe(200);
    const qr = await until(async () => (await config(app, auth, botId)).linking?.qr, 10_000, 'QR');
    const linking = wa.sockets.find((s) => qr.startsWith(`QR-${s.index}-`))!;
    expect(linking.sessionId).not.toBe(open.sessionId);
    linking.close(408, 'QR refs attempts ended');
    await until(async () => (await config(app, auth, botId)).status === 'expired', 5000, 'expired');
    expect(await config(app, auth, botId)).toMatchObject({
      linkFailure: 'qrExpired',
      health: { lastError: WHATSAPP_ERRORS.qrExpired },
    });
    // Retry: a new QR, and the scan links.
    await link(app, wa, auth, botId, '34622000222');
    expect((await config(app, auth, botId)).whatsapp_number).toBe('34622000222');
  });

  it('says a linking could not reach WhatsApp (not "QR expired") and lets the owner retry', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'sin-red@example.com', {
      business_name: 'Sin red',
    });
    const NETWORK = 'No se pudo conectar con WhatsApp: comprueba la conexión a internet del servidor';
    /** Starts a linking and waits for it to end; answers the configuration. */
    const failedLinking = async (close: (socket: FakeSocket) => void) => {
      const before = wa.sockets.length;
      expect((await requestNumber(app, auth, botId)).statusCode).toBe(200);
      const socket = await until(() => wa.sockets[before], 5000, 'a linking socket');
      close(socket);
      return until(
        async () => {
          const c = await config(app, auth, botId);
          return c.status === 'expired' ? c : undefined;
        },
        5000,
        'the linking ended',
      );
    };
    try {
      // The network is down: the socket closes with 408 "Connection was lost" before any QR code.
      wa.failBeforeQr = { code: 408, message: 'Connection was lost' };
      const lost = await failedLinking(() => {});
      expect(lost).toMatchObject({ connected: false, linking: null, linkFailure: 'network' });
      expect(lost.health.lastError).toContain(NETWORK);
      expect(lost.health.lastError).toContain('408: Connection was lost');
      expect(lost.health.lastError).not.toBe(WHATSAPP_ERRORS.qrExpired);
      // No reconnection loop behind the owner's back: the retry is theirs.
      const sockets = wa.sockets.length;
      await new Promise((r) => setTimeout(r, 600));
      expect(wa.sockets.length).toBe(sockets);

      // A WebSocket error (DNS) is the network too.
      wa.failBeforeQr = { code: 500, message: 'WebSocket Error (getaddrinfo ENOTFOUND web.whatsapp.com)' };
      const dns = await failedLinking(() => {});
      expect(dns.linkFailure).toBe('network');
      expect(dns.health.lastError).toContain('ENOTFOUND');

      // Back online, the retry shows a QR; the connection lost while it shows is still the network.
      wa.failBeforeQr = null;
      const shown = await failedLinking((socket) => {
        void until(() => socket.qrShown > 0, 5000, 'a QR code').then(() =>
          socket.close(408, 'Connection was lost'),
        );
      });
      expect(shown.linkFailure).toBe('network');

      // Only QR codes shown and run out unscanned are "QR expired".
      const ranOut = await failedLinking((socket) => {
        void until(() => socket.qrShown > 0, 5000, 'a QR code').then(() => {
          socket.nextQr();
          socket.close(408, 'QR refs attempts ended');
        });
      });
      expect(ranOut).toMatchObject({
        linkFailure: 'qrExpired',
        health: { lastError: WHATSAPP_ERRORS.qrExpired },
      });
    } finally {
      wa.failBeforeQr = null;
    }
  });

  it('goes quiet at 0 days keeping the session, and comes back on renewal to answer', async () => {
    const owner = await ownerWithBot(app, 'dias@example.com', { business_name: 'Días' });
    const { open } = await link(app, wa, owner.token, owner.botId, '34633000333');
    await setDays(app, owner.id, -1);
    await app.supervisor.reconcile(owner.botId);
    await until(() => open.state === 'closed', 5000, 'closed');
    expect((await config(app, owner.token, owner.botId)).health.state).toBe('paused');
    const kept = await adapter
      .db()
      .selectFrom('whatsapp_auth')
      .select('category')
      .where('chatbot_id', '=', owner.botId)
      .execute();
    expect(kept.map((k) => k.category)).toContain('creds');
    const socketsWhilePaused = wa.sockets.length;
    await new Promise((r) => setTimeout(r, 500));
    expect(wa.sockets.length).toBe(socketsWhilePaused);

    await setDays(app, owner.id, 30);
    const back = await until(
      () => wa.latest((s) => s.state === 'open' && s.sessionId === open.sessionId && s !== open),
      10_000,
      'back on renewal',
    );
    expect(back.qrShown).toBe(0); // the kept session: no new QR
    wa.receive(back, { jid: '34600000077@s.whatsapp.net' }, { conversation: 'hola de nuevo' });
    await until(() => sentTo(wa, '34600000077@s.whatsapp.net').length > 0, 10_000, 'answer after renewal');
  });
});

describe.each(dialectsOf(import.meta.url))(
  'one socket per WhatsApp session across processes (%s)',
  (kind) => {
    it('never lets two processes hold a session, and a restart resumes it without a QR', async () => {
      const openai = await startFakeOpenAi();
      const wa = new FakeWhatsApp(baileys);
      const store = await testStore(kind);
      const make = async () =>
        withInject(
          await createTestApp(kind, {
            llm: fakeLlm(openai.baseURL),
            env: ENV,
            supervisorIntervalMs: 200,
            store,
            adapters: [
              createWhatsAppAdapter({ loadBaileys: async () => wa.lib }) as unknown as ChannelAdapter<never>,
            ],
          }),
        );
      const a = await make();
      const b = await make();
      try {
        await a.startChannels();
        await b.startChannels();
        const { token: auth, botId } = await ownerWithBot(a, 'dos@example.com', {
          business_name: 'Dos procesos',
        });
        const { open } = await link(a, wa, auth, botId, '34644000444');
        // Both supervisors keep reconciling: the second process never opens the session.
        await new Promise((r) => setTimeout(r, 2500));
        expect(wa.violations).toEqual([]);
        expect(wa.sockets.filter((s) => s.state === 'open' && s.sessionId === open.sessionId)).toHaveLength(
          1,
        );
        const aHolds = Boolean(a.registry.adapters.get('whatsapp')?.connections?.connected().includes(botId));
        const bHolds = Boolean(b.registry.adapters.get('whatsapp')?.connections?.connected().includes(botId));
        expect([aHolds, bHolds].filter(Boolean)).toHaveLength(1);

        const [holder, other] = aHolds ? [a, b] : [b, a];
        // A send asked of the process without the socket (an owner's reply that reached the other
        // node) is handed to the holder, which sends it (issue 26 §2), instead of "not connected".
        await other.registry.adapters
          .get('whatsapp')!
          .send(botId, '34600000066@s.whatsapp.net', { text: 'Hola desde el otro proceso' });
        expect(sentTo(wa, '34600000066@s.whatsapp.net').map((m) => m.content.text)).toEqual([
          'Hola desde el otro proceso',
        ]);

        // The holder stops (a restart): the other process takes the session over, without a QR.
        const socketsBefore = wa.sockets.length;
        await holder.close();
        const resumed = await until(
          () =>
            wa.latest((s) => s.state === 'open' && s.sessionId === open.sessionId && s.index > socketsBefore),
          10_000,
          'takeover',
        );
        expect(resumed.qrShown).toBe(0);
        expect(wa.violations).toEqual([]);
        wa.receive(resumed, { jid: '34600000055@s.whatsapp.net' }, { conversation: '¿Seguís ahí?' });
        const [reply] = await until(
          () =>
            sentTo(wa, '34600000055@s.whatsapp.net').length > 0 && sentTo(wa, '34600000055@s.whatsapp.net'),
          10_000,
          'answer from the other process',
        );
        expect(reply!.content.text).toBe('Respuesta: ¿Seguís ahí?');
        expect((await config(other, auth, botId)).health.state).toBe('connected');
      } finally {
        await a.close().catch(() => {});
        await b.close().catch(() => {});
        await store.close();
        await openai.close();
      }
    });
  },
);
