/**
 * Broadcasts (issue 14 §3) through a running Charla and the local Bot API server: a text to 500
 * Telegram followers while the server answers some 429s with `retry_after` and some followers
 * have blocked the bot (403). Every reachable follower gets it exactly once, no second of sending
 * carries more than Telegram's 30 messages, blocked followers are recorded and left out of the next
 * broadcast, and progress is readable while it runs. A stored file and a recorded voice note with
 * an effect go out as Telegram media; the spec's errors; another owner can neither broadcast to
 * these followers nor read the history.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BroadcastsAnswer } from '../plugins/broadcasts/api.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { type BotCall, type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const GREETING = readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url));
const FOLLOWERS = 200;
const BLOCKED = [1000_007, 1000_061, 1000_123, 1000_150, 1000_199];

/** The largest number of calls in any window of `windowMs`. */
function peakRate(calls: BotCall[], windowMs = 1000): number {
  const at = calls.map((c) => c.at).sort((a, b) => a - b);
  let peak = 0;
  let start = 0;
  for (let end = 0; end < at.length; end++) {
    while (at[end]! - at[start]! >= windowMs) start++;
    peak = Math.max(peak, end - start + 1);
  }
  return peak;
}

describe.each(dialectsOf(import.meta.url))('broadcasts on %s', (kind) => {
  let telegram: FakeTelegram;
  let app: TestApp;
  let owner: { id: string; token: string };
  let other: { id: string; token: string };
  let botId: string;
  let tgToken: string;

  const send = async (
    fields: Record<string, string>,
    token = owner.token,
    audio?: { name: string; data: Uint8Array },
  ) => {
    const form = audio
      ? await multipart(fields, { field: 'audio', ...audio })
      : await (async () => {
          const f = new FormData();
          for (const [k, v] of Object.entries(fields)) f.append(k, v);
          const r = new Response(f);
          return {
            body: Buffer.from(await r.arrayBuffer()),
            contentType: r.headers.get('content-type')!,
          };
        })();
    return (await app.http()).inject({
      method: 'POST',
      url: '/api/telegram-broadcast',
      headers: { authorization: `Bearer ${token}`, 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const history = async (token = owner.token) =>
    (await app.http()).inject({
      method: 'GET',
      url: `/api/broadcasts/${botId}`,
      headers: { authorization: `Bearer ${token}` },
    });
  const waitDone = async (id: string, timeoutMs = 60_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const row = ((await history()).json() as BroadcastsAnswer).broadcasts.find((b) => b.id === id)!;
      if (row.status === 'done') return row;
      if (Date.now() > deadline) throw new Error(`broadcast not done: ${JSON.stringify(row)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  };
  /** Successful calls of `method` per chat. */
  const delivered = (method: string, since = 0) => {
    const per = new Map<string, number>();
    for (const c of telegram.callsOf(tgToken, method))
      if (!c.failed && c.at >= since)
        per.set(String(c.params.chat_id), (per.get(String(c.params.chat_id)) ?? 0) + 1);
    return per;
  };

  beforeAll(async () => {
    telegram = await startFakeTelegram();
    app = await createTestApp(kind, {
      llm: null,
      env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
    });
    await app.startChannels();
    owner = await app.owner('pepe@example.com');
    other = await app.owner('intrusa@example.com');
    const saved = await (await app.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'El Pato Pepe',
        business_description: 'Restaurante en Madrid.',
        idioma: 'Español',
      },
    });
    botId = (saved.json() as { id: string }).id;
    const tg = telegram.addBot('PatoPepeBot');
    tgToken = tg.token;
    const connected = await (await app.http()).inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: botId },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    // One follower says /start through Telegram (that registers them); the other 499 are stored.
    await telegram.sendText(tgToken, { id: 1000_000, first_name: 'Lucía' }, '/start');
    await telegram.waitFor(() => delivered('sendMessage').has('1000000'));
    await app.store.db
      .insertInto('followers')
      .values(
        Array.from({ length: FOLLOWERS - 1 }, (_, i) => ({
          chatbot_id: botId,
          channel: 'telegram',
          external_id: String(1000_001 + i),
          username: `seguidor${i + 1}`,
        })),
      )
      .execute();
    for (const chat of BLOCKED) telegram.block(tgToken, chat);
  });
  afterAll(async () => {
    await app?.close();
    await telegram?.close();
  });

  it('reaches every follower once at Telegram’s pace, honours 429 and records who blocked the bot', async () => {
    const since = Date.now();
    telegram.failNext(
      'sendMessage',
      { code: 429, description: 'Too Many Requests: retry after 1', retryAfter: 1 },
      3,
    );
    const res = await send({ chatbotId: botId, text: '¡Este sábado, paella para todos!' });
    expect(res.statusCode, res.body).toBe(200);
    const { broadcastId, total } = res.json() as { broadcastId: string; total: number };
    expect(total).toBe(FOLLOWERS);

    // Progress is visible while it runs.
    await telegram.waitFor(() => delivered('sendMessage', since).size >= 40, 20_000);
    const running = ((await history()).json() as BroadcastsAnswer).broadcasts[0]!;
    expect(running).toMatchObject({ id: broadcastId, status: 'sending', total: FOLLOWERS });
    expect(running.sent).toBeGreaterThan(0);
    expect(running.remaining).toBeGreaterThan(0);

    const done = await waitDone(broadcastId);
    expect(done).toMatchObject({
      sent: FOLLOWERS - BLOCKED.length,
      blocked: BLOCKED.length,
      failed: 0,
      remaining: 0,
    });
    const got = delivered('sendMessage', since);
    expect(got.size).toBe(FOLLOWERS - BLOCKED.length);
    expect([...got.values()].every((n) => n === 1)).toBe(true);
    for (const chat of BLOCKED) expect(got.has(String(chat))).toBe(false);
    const calls = telegram.callsOf(tgToken, 'sendMessage').filter((c) => c.at >= since);
    expect(calls.filter((c) => c.failed === 429)).toHaveLength(3);
    expect(peakRate(calls)).toBeLessThanOrEqual(30);

    // The owner sees it in each follower's conversation as theirs.
    const conv = await (await app.http()).inject({
      method: 'GET',
      url: `/api/conversations/${botId}/messages?channel=telegram&userId=1000042`,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect((conv.json() as { messages: Array<{ from: string; text: string }> }).messages).toContainEqual(
      expect.objectContaining({ from: 'owner', text: '¡Este sábado, paella para todos!' }),
    );
  }, 90_000);

  it('sends a robot-voice note, leaving out who blocked the bot until they write again', async () => {
    // A follower who blocked the bot unblocks it and writes again: they are back in.
    const back = BLOCKED[0]!;
    telegram.block(tgToken, back, false);
    await new Promise((r) => setTimeout(r, 50));
    await telegram.sendText(tgToken, { id: back, first_name: 'Vuelve' }, '/start');
    await telegram.waitFor(() => delivered('sendMessage').has(String(back)));
    const reachable = FOLLOWERS - BLOCKED.length + 1;
    const since = Date.now();
    const voice = await send({ chatbotId: botId, preset: 'robot' }, owner.token, {
      name: 'grabacion.ogg',
      data: GREETING,
    });
    expect(voice.statusCode, voice.body).toBe(200);
    expect((voice.json() as { total: number }).total).toBe(reachable);
    const done = await waitDone((voice.json() as { broadcastId: string }).broadcastId);
    expect(done).toMatchObject({ voice: true, preset: 'robot', sent: reachable, blocked: 0 });
    const notes = telegram.callsOf(tgToken, 'sendVoice').filter((c) => c.at >= since && !c.failed);
    expect(notes).toHaveLength(reachable);
    expect(notes.some((c) => String(c.params.chat_id) === String(back))).toBe(true);
    const ogg = Object.values(notes[0]!.files)[0]!.bytes;
    expect(ogg.subarray(0, 4).toString()).toBe('OggS');
    expect(ogg.includes(Buffer.from('OpusHead'))).toBe(true);
  }, 90_000);

  it('answers the spec’s errors and keeps other owners out', async () => {
    const empty = await send({ chatbotId: botId, text: '   ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'Escribe un texto o selecciona un archivo' });
    const unknownFile = await send({ chatbotId: botId, fileKey: 'no-existe' });
    expect(unknownFile.statusCode).toBe(400);
    expect((unknownFile.json() as { error: string }).error).toMatch(/^Error al enviar archivo: /);
    const broken = await send({ chatbotId: botId, preset: 'robot' }, owner.token, {
      name: 'grabacion.ogg',
      data: Buffer.from('esto no es audio'),
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'Error al enviar el audio.' });

    const before = telegram.calls.length;
    const intruder = await send({ chatbotId: botId, text: 'spam' }, other.token);
    expect(intruder.statusCode).toBe(404);
    expect((await history(other.token)).statusCode).toBe(404);
    await new Promise((r) => setTimeout(r, 300));
    expect(telegram.calls.slice(before).filter((c) => c.method.startsWith('send'))).toHaveLength(0);
  });
});
