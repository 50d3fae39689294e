/**
 * The Telegram channel as owners and followers meet it (issue 5):
 * - a whole conversation against `telegram-test-api`, the Bot API emulator from npm: /start gets the
 *   greeting in the bot's language and messages get the LLM's replies (local OpenAI-format server);
 * - against a local server speaking the Bot API wire format (test/servers/telegram.ts): connecting by
 *   token (errors for a bad format, a refused token, a wrong username; the token encrypted at rest),
 *   the webhook with its secret (a wrong secret is refused and nothing is stored), one reply for an
 *   update delivered three times, files sent with the right method and bytes, a LIST offer as inline
 *   buttons whose tap sends the file, a 429 with retry_after delayed and then delivered, media
 *   without text kept in the conversation, disconnecting;
 * - 20 bots with different tokens in one process, each answering only its own followers;
 * - days gating: at 0 days the bot goes quiet (token kept), and on renewal it comes back by itself
 *   and answers what followers sent meanwhile.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { TelegramServer } from 'telegram-test-api/lib/telegramServer.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TELEGRAM_ERRORS } from '../adapters/telegram/texts.ts';
import { GREETINGS, MEDIA_RECEIVED } from '../engine/conversation/texts.ts';
import { ffmpegPath } from '../engine/media.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { multipart } from './helpers/multipart.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));

/** A free TCP port on 127.0.0.1. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DAY = 86_400_000;

/** Sets an owner's expiry `days` from now (negative: in the past). */
async function setDays(app: App, userId: string, days: number) {
  const expires = new Date(Date.now() + days * DAY);
  await app.store.db
    .insertInto('user_profiles')
    .values({ user_id: userId, plan: 'free', expires_at: expires })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
    .execute();
}

/** Creates an owner with days left and a saved bot; returns the owner's token and the bot id. */
async function ownerWithBot(app: App, email: string, bot: Record<string, unknown>, days = 30) {
  const owner = await app.owner(email);
  await setDays(app, owner.id, days);
  const saved = await app.inject({
    method: 'POST',
    url: '/api/save-chatbot',
    headers: { authorization: `Bearer ${owner.token}` },
    payload: { business_description: 'Restaurante de cocina casera.', ...bot },
  });
  expect(saved.statusCode).toBe(200);
  return { ...owner, botId: (saved.json() as { id: string }).id };
}

/** A test app with its HTTP server's `inject` at hand. */
type App = TestApp & { inject: Awaited<ReturnType<TestApp['http']>>['inject'] };

/** Attaches `inject` of the app's HTTP server to the app (for brevity). */
async function withInject(app: TestApp): Promise<App> {
  const http = await app.http();
  return Object.assign(app, { inject: http.inject.bind(http) });
}

async function connect(app: App, auth: string, chatbotId: string, token: string, username: string) {
  return app.inject({
    method: 'POST',
    url: '/api/verify-telegram',
    headers: { authorization: `Bearer ${auth}` },
    payload: { telegramToken: token, telegramUsername: username, chatbotId },
  });
}

describe('a whole conversation against telegram-test-api (the Bot API emulator)', () => {
  let emulator: TelegramServer;
  let openai: FakeOpenAi;
  let app: App;

  beforeAll(async () => {
    const port = await freePort();
    emulator = new TelegramServer({ port, host: '127.0.0.1', storeTimeout: 60 });
    await emulator.start();
    openai = await startFakeOpenAi();
    app = await withInject(
      await createTestApp('pglite', {
        llm: fakeLlm(openai.baseURL),
        env: { TELEGRAM_API_ROOT: emulator.config.apiURL, TELEGRAM_MODE: 'polling' },
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
    await emulator?.stop();
  });

  it('greets on /start in the bot language and answers messages with the LLM', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'emu@example.com', {
      business_name: 'Casa Lola',
      idioma: 'Español',
    });
    const token = '123456:ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef12';
    // The emulator answers getMe with the same bot for every token: @TestNameBot.
    const res = await connect(app, auth, botId, token, '@TestNameBot');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      telegramUsername: 'TestNameBot',
      health: { mode: 'polling', state: 'connected' },
    });

    const client = emulator.getClient(token, {
      timeout: 8000,
      userId: 4242,
      chatId: 4242,
      firstName: 'Ana',
      userName: 'ana',
    });
    await client.sendCommand(client.makeCommand('/start'));
    const hello = await client.getUpdates();
    expect(hello.result.map((u: { message: { text: string } }) => u.message.text)).toContain(
      GREETINGS.es.replace('{business}', 'Casa Lola'),
    );
    await client.sendMessage(client.makeMessage('¿Abrís los domingos?'));
    const answer = await client.getUpdates();
    expect(answer.result.map((u: { message: { text: string } }) => u.message.text)).toContain(
      'Respuesta: ¿Abrís los domingos?',
    );
    // The LLM saw the follower's message and both sides are in the conversation.
    expect(openai.requests.at(-1)?.messages.at(-1)?.content).toBe('¿Abrís los domingos?');
    const stored = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'username'])
      .where('chatbot_id', '=', botId)
      .orderBy('created_at')
      .orderBy('sender', 'desc') // a turn's two rows share created_at: the follower's first
      .execute();
    expect(stored.map((m) => m.text)).toEqual([
      '/start',
      GREETINGS.es.replace('{business}', 'Casa Lola'),
      '¿Abrís los domingos?',
      'Respuesta: ¿Abrís los domingos?',
    ]);
    const follower = await app.store.db
      .selectFrom('followers')
      .selectAll()
      .where('chatbot_id', '=', botId)
      .execute();
    expect(follower).toMatchObject([{ channel: 'telegram', external_id: '4242', username: 'ana' }]);
  });
});

describe('Telegram against a local Bot API wire-format server', () => {
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  let app: App;
  let base: string;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi({
      reply: async (req) => {
        const text = req.messages.at(-1)?.content ?? '';
        // A long answer for "LARGO"; earlier messages of a burst answer slower than later ones.
        if (text === 'LARGO') return { text: `${'palabra '.repeat(1100)}\n\n${'fin '.repeat(600)}`.trim() };
        const burst = /^ráfaga (\d)$/.exec(text);
        if (burst) await sleep((5 - Number(burst[1])) * 80);
        return { text: `Respuesta: ${text}` };
      },
    });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    app = await withInject(
      await createTestApp('pglite', {
        llm: fakeLlm(openai.baseURL),
        env: { PUBLIC_URL: base, TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'webhook' },
      }),
    );
    await (await app.http()).listen({ port, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
    await telegram?.close();
  });

  it('connects by token with the spec’s checks, keeps the token encrypted and shows the health', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'conecta@example.com', {
      business_name: 'Conecta',
    });
    const bot = telegram.addBot('conecta_bot');

    const bad = await connect(app, auth, botId, 'no-es-un-token', 'conecta_bot');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe(TELEGRAM_ERRORS.badTokenFormat);
    const refused = await connect(
      app,
      auth,
      botId,
      '999999:AAHdesconocidoxxxxxxxxxxxxxxxxxxxxxxx',
      'conecta_bot',
    );
    expect(refused.json().error).toBe(TELEGRAM_ERRORS.tokenRejected);
    const wrongName = await connect(app, auth, botId, bot.token, 'otro_bot');
    expect(wrongName.json().error).toBe(
      'El nombre de usuario no coincide: el token es del bot @conecta_bot.',
    );
    const missing = await app.inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: { authorization: `Bearer ${auth}` },
      payload: { telegramToken: bot.token, telegramUsername: 'conecta_bot' },
    });
    expect(missing.json().error).toBe('Faltan datos para conectar.');

    const ok = await connect(app, auth, botId, bot.token, 'conecta_bot');
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      telegramUsername: 'conecta_bot',
      health: { mode: 'webhook', state: 'connected' },
    });
    const row = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    expect(row.telegram_token).not.toContain(bot.token.split(':')[1]);
    expect(app.secrets.decrypt(row.telegram_token!)).toBe(bot.token);
    expect(telegram.webhookOf(bot.token)).toEqual({
      url: `${base}/channels/telegram/${botId}`,
      secret: expect.stringMatching(/^[\w-]{32,}$/),
    });

    // Another owner cannot connect the same Telegram bot to their chatbot.
    const other = await ownerWithBot(app, 'copia@example.com', { business_name: 'Copia' });
    const taken = await connect(app, other.token, other.botId, bot.token, 'conecta_bot');
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe(TELEGRAM_ERRORS.inUse);

    const config = await app.inject({
      method: 'GET',
      url: '/api/get-telegram-config',
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(config.json()).toMatchObject({
      telegramUsername: 'conecta_bot',
      connected: true,
      health: { state: 'connected', pendingUpdates: 0 },
    });

    // Issue 27 §1: a webhook Telegram can no longer deliver to (here: set elsewhere) is "a channel
    // is down" for the owner, seen by the health check (the dashboard's, or the 10-minute one).
    const hook = telegram.webhookOf(bot.token)!;
    const ours = hook.url;
    hook.url = 'https://otro-servidor.example/hook';
    const down = await app.inject({
      method: 'GET',
      url: '/api/get-telegram-config',
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(down.json()).toMatchObject({ health: { state: 'error' } });
    const told = async () =>
      (
        await sql<{ kind: string }>`select kind from notification_events
          where chatbot_id = ${botId} and kind = 'channel_down'`.execute(app.store.db)
      ).rows;
    for (let i = 0; i < 100 && (await told()).length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    expect((await told()).map((e) => e.kind)).toEqual(['channel_down']);
    hook.url = ours;

    const removed = await app.inject({
      method: 'POST',
      url: '/api/remove-telegram',
      headers: { authorization: `Bearer ${auth}` },
      payload: { chatbotId: botId },
    });
    expect(removed.json()).toEqual({ success: true, message: 'Bot de Telegram desconectado.' });
    expect(telegram.webhookOf(bot.token)).toBeNull();
    const after = await app.inject({
      method: 'GET',
      url: '/api/get-telegram-config',
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(after.json()).toMatchObject({
      telegramUsername: null,
      connected: false,
      health: { state: 'disconnected' },
    });
  });

  it('refuses a webhook call without the bot’s secret and stores nothing', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'secreto@example.com', {
      business_name: 'Secreto',
    });
    const bot = telegram.addBot('secreto_bot');
    expect((await connect(app, auth, botId, bot.token, 'secreto_bot')).statusCode).toBe(200);
    const update = {
      update_id: 7,
      message: { message_id: 1, date: 1, chat: { id: 1, type: 'private' }, text: 'hola' },
    };
    for (const secret of [undefined, 'wrong-secret', telegram.webhookOf(bot.token)!.secret!.slice(1)]) {
      const res = await fetch(`${base}/channels/telegram/${botId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(secret ? { 'x-telegram-bot-api-secret-token': secret } : {}),
        },
        body: JSON.stringify(update),
      });
      expect(res.status).toBe(401);
    }
    // Reconfigured with another Telegram bot: the old bot's secret no longer opens the webhook.
    const oldSecret = telegram.webhookOf(bot.token)!.secret!;
    const replacement = telegram.addBot('secreto_nuevo_bot');
    expect((await connect(app, auth, botId, replacement.token, 'secreto_nuevo_bot')).statusCode).toBe(200);
    expect(telegram.webhookOf(bot.token)).toBeNull();
    expect(telegram.webhookOf(replacement.token)!.secret).not.toBe(oldSecret);
    const stale = await fetch(`${base}/channels/telegram/${botId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-telegram-bot-api-secret-token': oldSecret },
      body: JSON.stringify(update),
    });
    expect(stale.status).toBe(401);
    const stored = await app.store.db
      .selectFrom('channel_updates')
      .select('id')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(stored).toHaveLength(0);
    expect(telegram.callsOf(bot.token, 'sendMessage')).toHaveLength(0);
  });

  it('answers an update delivered three times once, and /start with the greeting', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'triple@example.com', {
      business_name: 'Triple',
      idioma: 'English',
    });
    const bot = telegram.addBot('triple_bot');
    expect((await connect(app, auth, botId, bot.token, 'triple_bot')).statusCode).toBe(200);
    await telegram.sendText(bot.token, { id: 71 }, '/start');
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1);
    expect(telegram.callsOf(bot.token, 'sendMessage')[0]!.params).toMatchObject({
      chat_id: '71',
      text: GREETINGS.en.replace('{business}', 'Triple'),
    });

    const update = await telegram.sendText(bot.token, { id: 71 }, 'What time do you open?');
    const again = await Promise.all([
      telegram.deliver(bot.token, update),
      telegram.deliver(bot.token, update),
    ]);
    expect(again.map((r) => r?.status)).toEqual([200, 200]);
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length >= 2);
    await app.inbox.idle();
    await sleep(300);
    const replies = telegram.callsOf(bot.token, 'sendMessage').map((c) => c.params.text);
    expect(replies).toEqual([
      GREETINGS.en.replace('{business}', 'Triple'),
      'Respuesta: What time do you open?',
    ]);
    expect(
      openai.requests.filter((r) => r.messages.at(-1)?.content === 'What time do you open?'),
    ).toHaveLength(1);
    // "typing…" showed while the LLM worked.
    expect(telegram.callsOf(bot.token, 'sendChatAction')[0]?.params).toMatchObject({
      chat_id: '71',
      action: 'typing',
    });
  });

  it('sends each file with its method and bytes, offers a LIST as buttons and sends the tapped file', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'archivos@example.com', {
      business_name: 'Archivos',
    });
    const headers = { authorization: `Bearer ${auth}` };
    const upload = async (name: string, data: Buffer, keyword: string) => {
      const { body, contentType } = await multipart({ chatbotId: botId }, { field: 'file', name, data });
      const res = await app.inject({
        method: 'POST',
        url: '/api/chatbot-files',
        headers: { ...headers, 'content-type': contentType },
        payload: body,
      });
      expect(res.statusCode, res.body).toBe(201);
      const file = res.json() as { id: string; file_name: string };
      const patch = await app.inject({
        method: 'PATCH',
        url: `/api/chatbot-files/${file.id}`,
        headers,
        payload: { keyword, context: `Archivo ${name}` },
      });
      expect(patch.statusCode).toBe(200);
      return file;
    };
    const video = join(tmpdir(), `charla-tg-${Date.now()}.mp4`);
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
    const pdf = await upload('carta.pdf', asset('carta-el-pato-pepe.pdf'), 'carta,menu');
    await upload('local.jpg', asset('local-el-pato-pepe.jpg'), 'local,menu');
    await upload('saludo.ogg', asset('saludo-el-pato-pepe.ogg'), 'saludo');
    await upload('paseo.mp4', readFileSync(video), 'paseo');
    const bot = telegram.addBot('archivos_bot');
    expect((await connect(app, auth, botId, bot.token, 'archivos_bot')).statusCode).toBe(200);

    const expectations: Array<[string, string, string, Buffer | null]> = [
      ['¿Me mandas la carta?', 'sendDocument', 'document', asset('carta-el-pato-pepe.pdf')],
      ['una foto del local por favor', 'sendPhoto', 'photo', asset('local-el-pato-pepe.jpg')],
      ['quiero el saludo', 'sendVoice', 'voice', asset('saludo-el-pato-pepe.ogg')],
      ['el vídeo del paseo', 'sendVideo', 'video', null],
    ];
    let chat = 300;
    for (const [text, method, field, bytes] of expectations) {
      chat++;
      await telegram.sendText(bot.token, { id: chat }, text);
      const [call] = (
        await telegram.waitFor(() =>
          telegram.callsOf(bot.token, method).some((c) => c.params.chat_id === String(chat)),
        )
      ).filter((c) => c.token === bot.token && c.method === method && c.params.chat_id === String(chat));
      expect(call!.files[field], `${method} uploads the file as "${field}"`).toBeDefined();
      if (bytes) expect(call!.files[field]!.bytes.equals(bytes)).toBe(true);
      else expect(call!.files[field]!.filename).toMatch(/\.webm$/);
      // The text reply came first.
      const texts = telegram
        .callsOf(bot.token, 'sendMessage')
        .filter((c) => c.params.chat_id === String(chat));
      expect(texts.length).toBeGreaterThan(0);
      expect(texts[0]!.at).toBeLessThanOrEqual(call!.at);
    }

    // Two files share "menu": the bot offers both as buttons; tapping one sends it.
    await telegram.sendText(bot.token, { id: 399 }, 'menu');
    await telegram.waitFor(() =>
      telegram
        .callsOf(bot.token, 'sendMessage')
        .some((c) => c.params.chat_id === '399' && c.params.reply_markup),
    );
    const offer = telegram
      .callsOf(bot.token, 'sendMessage')
      .find((c) => c.params.chat_id === '399' && c.params.reply_markup)!;
    const keyboard = (
      offer.params.reply_markup as { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }
    ).inline_keyboard.flat();
    expect(keyboard.map((b) => b.text).sort()).toEqual(['carta.pdf', 'local.jpg']);
    const button = keyboard.find((b) => b.text === 'carta.pdf')!;
    expect(button.callback_data).toBe(`f:${pdf.id}`);
    await telegram.deliver(bot.token, {
      update_id: telegram.nextUpdateId(),
      callback_query: {
        id: 'cbq-1',
        from: { id: 399, is_bot: false, first_name: 'Eva' },
        chat_instance: 'x',
        data: button.callback_data,
        message: {
          message_id: 9,
          date: 1,
          chat: { id: 399, type: 'private' },
          text: String(offer.params.text),
          reply_markup: offer.params.reply_markup,
        },
      },
    });
    const [sent] = (
      await telegram.waitFor(() =>
        telegram.callsOf(bot.token, 'sendDocument').some((c) => c.params.chat_id === '399'),
      )
    ).filter((c) => c.token === bot.token && c.method === 'sendDocument' && c.params.chat_id === '399');
    // The second time the same file goes to this bot, Telegram's file_id is reused (no upload).
    expect(sent!.params.document).toMatch(/^doc-/);
    expect(telegram.callsOf(bot.token, 'answerCallbackQuery')).toHaveLength(1);
  });

  it('answers a burst from one chat in order and splits a long reply at 4096 characters', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'rafaga@example.com', { business_name: 'Ráfaga' });
    const bot = telegram.addBot('rafaga_bot');
    expect((await connect(app, auth, botId, bot.token, 'rafaga_bot')).statusCode).toBe(200);
    for (let i = 1; i <= 5; i++) await telegram.sendText(bot.token, { id: 501 }, `ráfaga ${i}`);
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 5);
    expect(telegram.callsOf(bot.token, 'sendMessage').map((c) => c.params.text)).toEqual(
      [1, 2, 3, 4, 5].map((i) => `Respuesta: ráfaga ${i}`),
    );

    await telegram.sendText(bot.token, { id: 502 }, 'LARGO');
    await telegram.waitFor(() =>
      telegram.callsOf(bot.token, 'sendMessage').some((c) => c.params.chat_id === '502'),
    );
    await app.inbox.idle();
    const parts = telegram
      .callsOf(bot.token, 'sendMessage')
      .filter((c) => c.params.chat_id === '502')
      .map((c) => String(c.params.text));
    expect(parts.length).toBe(3);
    expect(parts.every((p) => p.length <= 4096)).toBe(true);
    expect(parts.join(' ').replace(/\s+/g, ' ')).toBe(
      `${'palabra '.repeat(1100)}${'fin '.repeat(600)}`.trim(),
    );
  });

  it('does not send the text again when Telegram refuses the file for good, and tells the owner', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'rechazo@example.com', {
      business_name: 'Rechazo',
    });
    const { body, contentType } = await multipart(
      { chatbotId: botId },
      { field: 'file', name: 'carta.pdf', data: asset('carta-el-pato-pepe.pdf') },
    );
    const up = await app.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${auth}`, 'content-type': contentType },
      payload: body,
    });
    const file = up.json() as { id: string };
    await app.inject({
      method: 'PATCH',
      url: `/api/chatbot-files/${file.id}`,
      headers: { authorization: `Bearer ${auth}` },
      payload: { keyword: 'carta', context: 'La carta' },
    });
    const bot = telegram.addBot('rechazo_bot');
    expect((await connect(app, auth, botId, bot.token, 'rechazo_bot')).statusCode).toBe(200);
    telegram.failNext('sendDocument', { code: 400, description: 'Bad Request: file is too big' });
    await telegram.sendText(bot.token, { id: 611 }, 'la carta');
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendDocument').length === 1);
    await app.inbox.idle();
    await sleep(300);
    expect(telegram.callsOf(bot.token, 'sendMessage')).toHaveLength(1);
    expect(telegram.callsOf(bot.token, 'sendDocument')).toHaveLength(1);
    const config = await app.inject({
      method: 'GET',
      url: `/api/get-telegram-config?chatbotId=${botId}`,
      headers: { authorization: `Bearer ${auth}` },
    });
    expect(config.json().health.lastError).toBe(
      'Telegram rechazó el archivo carta.pdf: 400: Bad Request: file is too big',
    );
  });

  it('waits retry_after on a 429 and then delivers the reply', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'flood@example.com', { business_name: 'Flood' });
    const bot = telegram.addBot('flood_bot');
    expect((await connect(app, auth, botId, bot.token, 'flood_bot')).statusCode).toBe(200);
    telegram.failNext('sendMessage', {
      code: 429,
      description: 'Too Many Requests: retry after 1',
      retryAfter: 1,
    });
    await telegram.sendText(bot.token, { id: 55 }, 'hola');
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 2, 15_000);
    const [refused, delivered] = telegram.callsOf(bot.token, 'sendMessage');
    expect(delivered!.params.text).toBe('Respuesta: hola');
    expect(delivered!.at - refused!.at).toBeGreaterThanOrEqual(1000);
  });

  it('keeps a voice note in the conversation and asks the follower to write', async () => {
    const { token: auth, botId } = await ownerWithBot(app, 'voz@example.com', {
      business_name: 'Voz',
      idioma: 'Español',
    });
    const bot = telegram.addBot('voz_bot');
    expect((await connect(app, auth, botId, bot.token, 'voz_bot')).statusCode).toBe(200);
    await telegram.deliver(bot.token, {
      update_id: telegram.nextUpdateId(),
      message: {
        message_id: 5,
        date: 1,
        chat: { id: 88, type: 'private' },
        from: { id: 88, is_bot: false, first_name: 'Luis', username: 'luis' },
        voice: { file_id: 'VOICE-FILE-ID', file_unique_id: 'u', duration: 3, mime_type: 'audio/ogg' },
      },
    });
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1);
    expect(telegram.callsOf(bot.token, 'sendMessage')[0]!.params.text).toBe(
      MEDIA_RECEIVED.es.replace('{media}', 'nota de voz'),
    );
    await app.inbox.idle();
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'meta'])
      .where('chatbot_id', '=', botId)
      .orderBy('created_at')
      .orderBy('sender', 'desc') // a turn's two rows share created_at: the follower's first
      .execute();
    // The follower's row keeps the note's Telegram file id (for the owner, and a later transcription).
    expect(rows[0]).toMatchObject({
      sender: 'user',
      text: '[nota de voz]',
      meta: { received: [{ kind: 'voice', channelFileId: 'VOICE-FILE-ID', mime: 'audio/ogg' }] },
    });
    expect(rows[1]).toMatchObject({
      sender: 'bot',
      text: MEDIA_RECEIVED.es.replace('{media}', 'nota de voz'),
    });
  });
});

describe('many bots and days gating in one process (long polling)', () => {
  let telegram: FakeTelegram;
  let openai: FakeOpenAi;
  let app: App;

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    openai = await startFakeOpenAi();
    app = await withInject(
      await createTestApp('pglite', {
        llm: fakeLlm(openai.baseURL),
        env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling', TELEGRAM_POLL_TIMEOUT_S: '2' },
        supervisorIntervalMs: 300,
      }),
    );
  });
  afterAll(async () => {
    await app?.close();
    await openai?.close();
    await telegram?.close();
  });

  it('runs 20 bots with different tokens, each answering only its own followers', async () => {
    const bots: Array<{ token: string; botId: string }> = [];
    for (let i = 0; i < 20; i++) {
      const { token: auth, botId } = await ownerWithBot(app, `multi${i}@example.com`, {
        business_name: `Bot ${i}`,
      });
      const bot = telegram.addBot(`multi_${i}_bot`);
      expect((await connect(app, auth, botId, bot.token, `multi_${i}_bot`)).statusCode).toBe(200);
      bots.push({ token: bot.token, botId });
    }
    await Promise.all(bots.map((b, i) => telegram.sendText(b.token, { id: 9000 + i }, `hola bot ${i}`)));
    await telegram.waitFor(
      () => bots.every((b) => telegram.callsOf(b.token, 'sendMessage').length >= 1),
      20_000,
    );
    bots.forEach((b, i) => {
      const sent = telegram.callsOf(b.token, 'sendMessage');
      expect(sent.map((c) => [c.params.chat_id, c.params.text])).toEqual([
        [String(9000 + i), `Respuesta: hola bot ${i}`],
      ]);
    });
    const status = await app.inject({
      method: 'GET',
      url: `/api/get-telegram-config?chatbotId=${bots[0]!.botId}`,
      headers: { authorization: `Bearer ${(await app.owner('multi0@example.com')).token}` },
    });
    expect(status.json()).toMatchObject({ health: { mode: 'polling', state: 'connected' } });
  });

  it('goes quiet at 0 days keeping its token, and comes back on renewal answering what waited', async () => {
    const owner = await ownerWithBot(app, 'dias@example.com', { business_name: 'Días' });
    const bot = telegram.addBot('dias_bot');
    expect((await connect(app, owner.token, owner.botId, bot.token, 'dias_bot')).statusCode).toBe(200);
    await app.startChannels();
    await telegram.sendText(bot.token, { id: 61 }, 'primero');
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1);

    await setDays(app, owner.id, -1);
    await sleep(1200); // a few supervisor passes
    const status = await app.inject({
      method: 'GET',
      url: '/api/get-telegram-config',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(status.json()).toMatchObject({
      telegramUsername: 'dias_bot',
      connected: true,
      health: { state: 'paused' },
    });
    await telegram.sendText(bot.token, { id: 61 }, 'mientras tanto');
    await sleep(2500);
    expect(telegram.callsOf(bot.token, 'sendMessage')).toHaveLength(1);

    await setDays(app, owner.id, 30);
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 2, 10_000);
    expect(telegram.callsOf(bot.token, 'sendMessage')[1]!.params.text).toBe('Respuesta: mientras tanto');
  });
});
