/**
 * Followers' conversations (issue 14, first part) through a running Charla: the owner's reply goes
 * out through the follower's channel (Telegram's Bot API emulator; the web widget's pushed
 * messages) and is stored as the owner's; while the owner has taken over, the follower's messages
 * are stored and the bot says nothing, until the quiet period ends (the clock moves); a message
 * replayed after the resume is not answered; the list shows unread counts and searches by name;
 * the live stream tells the screen within a second; deleting a conversation removes it. Issue 27 §4:
 * the list filters by channel and state and searches message texts on the server, names nameless
 * web visitors "Visitante web n", keeps the owner's test chats apart (and out of the public
 * Facebots count of responses), and unread counts clear when the owner reads.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { markNeedsPerson } from '../plugins/conversations/status.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));

describe.each(dialectsOf(import.meta.url))('followers’ conversations on %s', (kind) => {
  let clock = new Date('2026-11-23T09:00:00Z');
  let telegram: FakeTelegram;
  let app: TestApp;
  let owner: { id: string; token: string };
  let botId: string;
  let tgToken: string;
  const auth = () => ({ authorization: `Bearer ${owner.token}` });
  const inject = async (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) =>
    (await app.http()).inject({
      method,
      url,
      headers: auth(),
      ...(payload ? { payload: payload as object } : {}),
    });
  const botReplies = (chatId: number) =>
    telegram
      .callsOf(tgToken, 'sendMessage')
      .filter((c) => String(c.params.chat_id) === String(chatId))
      .map((c) => String(c.params.text));
  const messagesOf = async (channel: string, userId: string) =>
    (
      await inject('GET', `/api/conversations/${botId}/messages?channel=${channel}&userId=${userId}`)
    ).json() as {
      messages: Array<{ from: string; text: string }>;
      pausedUntil: string | null;
      canReply: boolean;
    };

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    app = await createTestApp(kind, {
      llm: null,
      now: () => clock,
      env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
    });
    await app.startChannels();
    owner = await app.owner('pepe@example.com');
    const saved = await inject('POST', '/api/save-chatbot', {
      business_name: 'El Pato Pepe',
      business_description: 'Restaurante familiar en Madrid. Abrimos de martes a domingo de 13:00 a 23:30.',
      idioma: 'Español',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    botId = (saved.json() as { id: string }).id;
    const tg = telegram.addBot('PatoPepeBot');
    tgToken = tg.token;
    const connected = await inject('POST', '/api/verify-telegram', {
      telegramToken: tg.token,
      telegramUsername: tg.username,
      chatbotId: botId,
    });
    expect(connected.statusCode, connected.body).toBe(200);
  });
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
  });

  it('lists a follower with unread messages, replies from the dashboard and keeps the bot quiet until the quiet period ends', async () => {
    await telegram.sendText(tgToken, { id: 501, username: 'lucia_m' }, '¿A qué hora abrís?');
    await telegram.waitFor(() => botReplies(501).length === 1);

    const list = (await inject('GET', `/api/conversations/${botId}`)).json() as {
      followers: Array<{
        channel: string;
        userId: string;
        name: string | null;
        unread: number;
        lastFrom: string;
      }>;
    };
    expect(list.followers).toMatchObject([
      // Issue 27 §4.2: the first name Telegram gives (the emulator's "Follower") and the @username.
      {
        channel: 'telegram',
        userId: '501',
        name: 'Follower',
        handle: '@lucia_m',
        unread: 1,
        lastFrom: 'bot',
      },
    ]);
    // Opening it marks it read.
    expect((await messagesOf('telegram', '501')).messages.map((m) => m.from)).toEqual(['user', 'bot']);
    const read = (await inject('GET', `/api/conversations/${botId}`)).json() as {
      followers: Array<{ unread: number }>;
    };
    expect(read.followers[0]!.unread).toBe(0);

    // The owner writes: it reaches the follower and is stored as the owner's; the bot pauses.
    const replied = await inject('POST', `/api/conversations/${botId}/reply`, {
      channel: 'telegram',
      userId: '501',
      text: 'Hola Lucía, soy Pepe. Hoy abrimos a las 13:00.',
    });
    expect(replied.statusCode, replied.body).toBe(200);
    expect(botReplies(501).at(-1)).toBe('Hola Lucía, soy Pepe. Hoy abrimos a las 13:00.');
    expect((replied.json() as { pausedUntil: string }).pausedUntil).toBe('2026-11-23T09:30:00.000Z');

    // The follower answers: stored, shown, no bot reply.
    await telegram.sendText(tgToken, { id: 501, username: 'lucia_m' }, '¡Gracias! ¿Tenéis terraza?');
    await expect
      .poll(async () => (await messagesOf('telegram', '501')).messages.map((m) => `${m.from}:${m.text}`))
      .toContain('user:¡Gracias! ¿Tenéis terraza?');
    await new Promise((r) => setTimeout(r, 500));
    expect(botReplies(501)).toHaveLength(2);
    const during = await messagesOf('telegram', '501');
    expect(during.messages.map((m) => m.from)).toEqual(['user', 'bot', 'owner', 'user']);
    expect(during.pausedUntil).toBe('2026-11-23T09:30:00.000Z');

    // 31 minutes later the bot answers again.
    clock = new Date('2026-11-23T09:31:00Z');
    await telegram.sendText(tgToken, { id: 501, username: 'lucia_m' }, '¿Y el sábado a qué hora abrís?');
    await telegram.waitFor(() => botReplies(501).length === 3);
    expect((await messagesOf('telegram', '501')).pausedUntil).toBeNull();
  });

  it('does not answer a message replayed after the resume that arrived during the takeover', async () => {
    clock = new Date('2026-11-23T10:00:00Z');
    const paused = await inject('POST', `/api/conversations/${botId}/takeover`, {
      channel: 'telegram',
      userId: '777',
      paused: true,
      quietMinutes: 10,
    });
    expect(paused.json()).toEqual({ pausedUntil: '2026-11-23T10:10:00.000Z', quietMinutes: 10 });
    const update = {
      update_id: telegram.nextUpdateId(),
      message: {
        message_id: 9001,
        date: Math.floor(clock.getTime() / 1000),
        chat: { id: 777, type: 'private' },
        from: { id: 777, is_bot: false, first_name: 'Mar' },
        text: '¿Tenéis menú del día?',
      },
    };
    await telegram.deliver(tgToken, update);
    await expect.poll(async () => (await messagesOf('telegram', '777')).messages.length).toBe(1);
    clock = new Date('2026-11-23T10:20:00Z');
    // The same Telegram message again (a redelivery): answered from the store, silently.
    const turn = await app.engine.handleTurn({
      chatbotId: botId,
      channel: 'telegram',
      follower: { id: '777' },
      text: '¿Tenéis menú del día?',
      messageId: '777:9001', // the Telegram adapter's id: <chat id>:<message_id>
    });
    expect(turn).toMatchObject({ silent: true, reply: '' });
    expect(botReplies(777)).toEqual([]);
    // Resumed by hand: the next message gets an answer.
    const resumed = await inject('POST', `/api/conversations/${botId}/takeover`, {
      channel: 'telegram',
      userId: '777',
      paused: false,
    });
    expect((resumed.json() as { pausedUntil: null }).pausedUntil).toBeNull();
  });

  it('sends the owner’s reply to a web visitor, who fetches it, and refuses the test chat', async () => {
    await app.engine.handleTurn({
      chatbotId: botId,
      channel: 'web',
      follower: { id: 'visitante-9' },
      text: 'Hola',
      messageId: 'w-1',
    });
    const res = await inject('POST', `/api/conversations/${botId}/reply`, {
      channel: 'web',
      userId: 'visitante-9',
      text: 'Hola, soy Pepe',
    });
    expect(res.statusCode, res.body).toBe(200);
    const keyed = await inject('POST', '/api/charla-web/key', { chatbotId: botId });
    await inject('POST', '/api/charla-web/toggle', { chatbotId: botId, enabled: true });
    const key = (keyed.json() as { charla_key: string }).charla_key;
    const pushed = await (await app.http()).inject({
      method: 'GET',
      url: `/api/web/${key}/pushed?visitorId=visitante-9`,
    });
    expect((pushed.json() as { messages: Array<{ text: string; from: string }> }).messages).toEqual([
      expect.objectContaining({ text: 'Hola, soy Pepe', from: 'owner' }),
    ]);
    await app.engine.handleTurn({
      chatbotId: botId,
      channel: 'test',
      follower: { id: 'test-1' },
      text: 'Hola',
      messageId: 't-1',
    });
    expect((await messagesOf('test', 'test-1')).canReply).toBe(false);
    const refused = await inject('POST', `/api/conversations/${botId}/reply`, {
      channel: 'test',
      userId: 'test-1',
      text: 'Hola',
    });
    expect(refused.statusCode).toBe(409);
  });

  it('streams a new follower message to the owner’s screen within a second, searches by name, and deletes a conversation', async () => {
    const http = await app.http();
    if (!http.server.listening) await http.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const controller = new AbortController();
    const res = await fetch(`${base}/api/conversations/${botId}/events`, {
      headers: auth(),
      signal: controller.signal,
    });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    const until = async (pattern: RegExp) => {
      while (!pattern.test(text)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
    };
    await until(/event: ready/);
    const sent = Date.now();
    await telegram.sendText(tgToken, { id: 888, username: 'nuevo_seguidor' }, 'Hola, ¿hacéis envíos?');
    await until(/"userId":"888"/);
    expect(Date.now() - sent).toBeLessThan(1000 + 500 /* the Bot API poll */);
    controller.abort();

    const found = (await inject('GET', `/api/conversations/${botId}?q=nuevo`)).json() as {
      followers: Array<{ userId: string }>;
    };
    expect(found.followers.map((f) => f.userId)).toEqual(['888']);
    const deleted = await inject(
      'DELETE',
      `/api/conversations/${botId}/messages?channel=telegram&userId=888`,
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect((deleted.json() as { deleted: number }).deleted).toBeGreaterThan(0);
    const after = (await inject('GET', `/api/conversations/${botId}?q=nuevo`)).json() as {
      followers: unknown[];
    };
    expect(after.followers).toEqual([]);
  });

  it('sends the owner’s recorded voice note with an effect to a Telegram follower and keeps the bot quiet', async () => {
    await telegram.sendText(tgToken, { id: 777, username: 'voz_marta' }, 'Hola, ¿tenéis menú del día?');
    await telegram.waitFor(() => botReplies(777).length === 1);
    const form = await multipart(
      { channel: 'telegram', userId: '777', preset: 'robot' },
      { field: 'audio', name: 'grabacion.ogg', data: GREETING },
    );
    const sent = await (await app.http()).inject({
      method: 'POST',
      url: `/api/conversations/${botId}/voice`,
      headers: { ...auth(), 'content-type': form.contentType },
      payload: form.body,
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const note = telegram.callsOf(tgToken, 'sendVoice').find((c) => String(c.params.chat_id) === '777');
    const ogg = Object.values(note!.files)[0]!.bytes;
    expect(ogg.subarray(0, 4).toString()).toBe('OggS');
    const conv = await messagesOf('telegram', '777');
    expect(conv.messages.at(-1)).toMatchObject({ from: 'owner', text: '🎤' });
    expect(conv.pausedUntil).not.toBeNull();
    // While the owner has taken over, the follower's answer is stored and the bot says nothing.
    await telegram.sendText(tgToken, { id: 777, username: 'voz_marta' }, '¡Qué voz tan rara!');
    await new Promise((r) => setTimeout(r, 800));
    expect(botReplies(777)).toHaveLength(1);

    const broken = await multipart(
      { channel: 'telegram', userId: '777', preset: 'robot' },
      { field: 'audio', name: 'grabacion.ogg', data: Buffer.from('no es audio') },
    );
    const failed = await (await app.http()).inject({
      method: 'POST',
      url: `/api/conversations/${botId}/voice`,
      headers: { ...auth(), 'content-type': broken.contentType },
      payload: broken.body,
    });
    expect(failed.statusCode).toBe(400);
    expect(failed.json()).toMatchObject({ error: 'Error al enviar el audio.' });
  });

  it('links the owner’s own Telegram with a one-time deep link, forwards follower messages there and sends the owner’s reply to the follower', async () => {
    const OWNER_CHAT = 9001;
    expect((await inject('GET', `/api/conversations/${botId}/phone`)).json()).toMatchObject({
      telegram: true,
      linked: false,
    });
    const link = (await inject('POST', `/api/conversations/${botId}/phone`)).json() as { url: string };
    const m = /^https:\/\/t\.me\/PatoPepeBot\?start=(own-[\w-]+)$/.exec(link.url);
    expect(m, link.url).not.toBeNull();
    await telegram.sendText(tgToken, { id: OWNER_CHAT, username: 'pepe_dueno' }, `/start ${m![1]}`);
    await telegram.waitFor(() => botReplies(OWNER_CHAT).length === 1);
    expect(botReplies(OWNER_CHAT)[0]).toMatch(
      /^✅ Listo: recibirás aquí los mensajes de los seguidores de El Pato Pepe/,
    );
    expect((await inject('GET', `/api/conversations/${botId}/phone`)).json()).toMatchObject({ linked: true });
    // The code works once.
    await telegram.sendText(tgToken, { id: 9002, username: 'otro' }, `/start ${m![1]}`);
    await telegram.waitFor(() => botReplies(9002).length === 1);
    expect(botReplies(9002)[0]).toMatch(/^Este enlace ya no vale/);

    // A follower writes: the bot answers, and the owner's phone gets the message.
    await telegram.sendText(tgToken, { id: 602, username: 'marcos_r' }, '¿Puedo llevar a mi perro?');
    await telegram.waitFor(() => botReplies(602).length === 1 && botReplies(OWNER_CHAT).length === 2);
    const forwarded = telegram
      .callsOf(tgToken, 'sendMessage')
      .filter((c) => String(c.params.chat_id) === String(OWNER_CHAT))
      .at(-1)!;
    expect(forwarded.params.text).toBe('💬 marcos_r · Telegram\n¿Puedo llevar a mi perro?');

    // The owner replies to it from the phone: the follower gets it as the owner's, the bot pauses.
    await telegram.sendText(
      tgToken,
      { id: OWNER_CHAT, username: 'pepe_dueno' },
      'Claro, Marcos: en la terraza los perros son bienvenidos.',
      forwarded.result!.message_id,
    );
    await telegram.waitFor(() => botReplies(602).length === 2);
    expect(botReplies(602)[1]).toBe('Claro, Marcos: en la terraza los perros son bienvenidos.');
    const conv = await messagesOf('telegram', '602');
    expect(conv.messages.at(-1)).toMatchObject({
      from: 'owner',
      text: 'Claro, Marcos: en la terraza los perros son bienvenidos.',
    });
    expect(conv.pausedUntil).not.toBeNull();
    await telegram.sendText(tgToken, { id: 602, username: 'marcos_r' }, '¡Genial!');
    await telegram.waitFor(() => botReplies(OWNER_CHAT).length === 3); // forwarded while paused
    await new Promise((r) => setTimeout(r, 500));
    expect(botReplies(602)).toHaveLength(2); // the bot stayed quiet

    // A message that answers nothing gets the help; the owner's chat is not a follower.
    await telegram.sendText(tgToken, { id: OWNER_CHAT, username: 'pepe_dueno' }, 'hola');
    await telegram.waitFor(() => botReplies(OWNER_CHAT).length === 4);
    expect(botReplies(OWNER_CHAT)[3]).toMatch(/^Para contestar a un seguidor, responde/);
    const list = (await inject('GET', `/api/conversations/${botId}`)).json() as {
      followers: Array<{ userId: string }>;
    };
    expect(list.followers.map((f) => f.userId)).not.toContain(String(OWNER_CHAT));

    // Unlinked: no more forwards.
    expect((await inject('DELETE', `/api/conversations/${botId}/phone`)).statusCode).toBe(200);
    await telegram.sendText(tgToken, { id: 603, username: 'ines' }, '¿Abrís mañana?');
    await telegram.waitFor(() => botReplies(603).length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(botReplies(OWNER_CHAT)).toHaveLength(4);
  });

  it('filters by channel and state, searches message texts, names web visitors, keeps test chats apart and out of the Facebots count', async () => {
    type Row = {
      channel: string;
      userId: string;
      name: string | null;
      visitorNo: number | null;
      status: string;
      unread: number;
    };
    const list = async (query = '') =>
      ((await inject('GET', `/api/conversations/${botId}${query}`)).json() as { followers: Row[] }).followers;
    const turn = (channel: string, userId: string, text: string) =>
      app.engine.handleTurn({
        chatbotId: botId,
        channel,
        follower: { id: userId },
        text,
        messageId: `${userId}-${text}`,
      });
    await app.store.db
      .updateTable('chatbots')
      .set({ is_public: true, published_at: new Date() })
      .where('id', '=', botId)
      .execute();
    const responses = async () => {
      const dir = (await (await app.http()).inject({ method: 'GET', url: '/api/facebots' })).json() as {
        bots: Array<{ id: string; responses_count: number }>;
      };
      return dir.bots.find((b) => b.id === botId)!.responses_count;
    };
    await expect.poll(responses).toBeGreaterThan(0);
    const before = await responses();

    // The owner's test chats: answered, but not followers and not counted.
    await turn('test', 'test-2', 'Prueba: ¿abrís el lunes?');
    await turn('cli', 'cli-1', 'Prueba desde la terminal');
    await new Promise((r) => setTimeout(r, 600)); // the batched count flushes every 250 ms
    expect(await responses()).toBe(before);
    const all = await list();
    expect(all.map((f) => f.channel)).not.toContain('test');
    expect(all.map((f) => f.channel)).not.toContain('cli');
    expect((await list('?tests=1')).map((f) => f.userId)).toEqual(
      expect.arrayContaining(['test-2', 'cli-1', 'test-1']),
    );

    // A real web visitor counts, and is named "Visitante web 2" (visitante-9 was the first).
    await turn('web', 'visitante-20', '¿Tenéis menú sin gluten?');
    await expect.poll(responses).toBe(before + 1);
    const web = await list('?channel=web');
    expect(web.map((f) => [f.userId, f.name, f.visitorNo])).toEqual([
      ['visitante-20', null, 2],
      ['visitante-9', null, 1],
    ]);
    expect(new Set(all.map((f) => f.channel))).toEqual(new Set(['telegram', 'web']));
    expect((await list('?channel=telegram')).every((f) => f.channel === 'telegram')).toBe(true);
    // Search reaches message texts, not only names.
    expect((await list('?q=gluten')).map((f) => f.userId)).toEqual(['visitante-20']);
    expect((await list('?q=GLUTEN&channel=telegram')).map((f) => f.userId)).toEqual([]);
    const bad = await inject('GET', `/api/conversations/${botId}?channel=sms`);
    expect(bad.statusCode).toBe(400);
    expect((bad.json() as { error: string }).error).toBeTruthy();

    // Unread until the owner reads the conversation.
    expect(web[0]!.unread).toBe(1);
    expect((await messagesOf('web', 'visitante-20')).messages).toHaveLength(2);
    expect((await list('?channel=web'))[0]!.unread).toBe(0);

    // States: open by default, set by the owner, or needs a person by the hand-off function.
    expect(web.map((f) => f.status)).toEqual(['open', 'open']);
    const set = await inject('POST', `/api/conversations/${botId}/status`, {
      channel: 'web',
      userId: 'visitante-20',
      status: 'resolved',
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await messagesOf('web', 'visitante-20')) as unknown).toMatchObject({ status: 'resolved' });
    await markNeedsPerson(app.store.db, { chatbotId: botId, channel: 'web', chatId: 'visitante-9' }, clock);
    expect((await list('?status=needs_person')).map((f) => f.userId)).toEqual(['visitante-9']);
    expect((await list('?status=resolved')).map((f) => f.userId)).toEqual(['visitante-20']);
    const wrong = await inject('POST', `/api/conversations/${botId}/status`, {
      channel: 'web',
      userId: 'visitante-20',
      status: 'archived',
    });
    expect(wrong.statusCode).toBe(400);
  });
});
