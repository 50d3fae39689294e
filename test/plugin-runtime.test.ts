/**
 * The plugin runtime through a running Charla (issue 12, "The plugin runtime"): a plugin's tools
 * called by a model on a local server that speaks the OpenAI wire format (tool calls streamed as
 * real servers do), the bounded tool loop, tool calls kept with the turn so a replayed message id
 * books once; middleware that rewrites or silences a turn; an offline dialogue driving the tools
 * with no LLM; a plugin reaching a Telegram follower through the adapter after the outbound
 * transformers; media read through the channel; a plugin's own migrations and owner routes.
 */
import { readFileSync } from 'node:fs';
import type { InjectOptions } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_TOOL_ROUNDS } from '../engine/conversation/llm.ts';
import { defineJob } from '../engine/jobs/index.ts';
import {
  definePlugin,
  defineTool,
  type FeaturePlugin,
  type PluginContext,
  pluginJob,
} from '../engine/registry/index.ts';
import type { StoredTurnMeta } from '../engine/store/database.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { multipart } from './helpers/multipart.ts';
import { enableWeb } from './helpers/owners.ts';
import { type FakeOpenAi, type FakeReply, type RecordedRequest, startFakeOpenAi } from './servers/openai.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

/** A reminder the test plugin sends through the durable job queue. */
const reminder = defineJob({
  name: 'booking-test.reminder',
  data: z.object({ chatbotId: z.string(), chatId: z.string(), text: z.string() }),
  retryDelaySeconds: 1,
});

/** A booking plugin small enough to read in one screen: what a real plugin would contribute. */
function bookingPlugin(state: { ctx?: PluginContext; bookings: Map<string, number> }): FeaturePlugin {
  return definePlugin({
    id: 'booking-test',
    migrations: {
      '202611230000_notes': {
        async up(db) {
          await sql`create table booking_test_notes (id serial primary key, text text not null)`.execute(db);
        },
      },
    },
    setup(ctx) {
      state.ctx = ctx;
      return {
        tools: [
          defineTool({
            name: 'book_table',
            description: 'Books a table for a number of people at a time.',
            input: z.object({ people: z.number().int().min(1).max(12), time: z.string() }),
            enabled: (bot) => bot.settings.enable_reservations,
            async run(input, call) {
              // Keyed by the call's idempotency key: the same call made again books nothing new.
              state.bookings.set(call.idempotencyKey, input.people);
              return { code: 'PEPE42', people: input.people, time: input.time };
            },
          }),
          {
            name: 'kitchen_status',
            description: 'Says whether the kitchen is open.',
            input: z.object({}),
            enabled: (bot) => bot.settings.enable_reservations,
            async run() {
              throw new Error('La cocina no responde.');
            },
          },
        ],
        middleware: [
          (turn) => {
            if (turn.inbound.text === 'silencio') return { silent: true, reason: 'the owner took over' };
            if (turn.inbound.text.startsWith('reescribe:'))
              return { text: turn.inbound.text.slice('reescribe:'.length) };
            if (turn.inbound.text === 'rompe') throw new Error('middleware bug');
            return undefined;
          },
          async (turn) => {
            // A voice "transcription": reads the note's bytes through the follower's channel.
            if (turn.inbound.attachments?.[0]?.type !== 'voice') return undefined;
            const { data } = await turn.media(0);
            return { text: `nota de ${data.length} bytes` };
          },
        ],
        offline: [
          async (turn, tools) => {
            if (!turn.inbound.text.includes('reservar')) return undefined;
            const booked = await tools.run('book_table', { people: 2, time: '20:00' });
            return booked.ok
              ? { reply: `Reserva hecha: ${JSON.stringify(booked.output)}` }
              : { reply: booked.error };
          },
        ],
        jobs: [
          pluginJob(reminder, async ({ data }) => {
            await ctx.send(
              { chatbotId: data.chatbotId, channel: 'telegram', chatId: data.chatId },
              { text: data.text },
            );
          }),
        ],
        outbound: [
          () => {
            throw new Error('voice server down');
          },
          (message) => ({ ...message, text: `${message.text} ✓` }),
        ],
        routes: {
          prefix: '',
          async plugin(app) {
            app.get('/api/booking-test/whoami', { config: { owner: { self: true } } }, async (req) => {
              const owner = await ctx.requireOwner(req);
              return { owner: owner.id };
            });
          },
        },
      };
    },
  });
}

describe.each(dialectsOf(import.meta.url))('the plugin runtime on %s', (kind) => {
  const state: { ctx?: PluginContext; bookings: Map<string, number> } = { bookings: new Map() };
  let llm: FakeOpenAi;
  let telegram: FakeTelegram;
  let app: TestApp;
  let offlineApp: TestApp;
  let script: Array<FakeReply | ((r: RecordedRequest) => FakeReply)> = [];
  let owner: { id: string; token: string };
  let botId: string;
  let plainBotId: string;

  const inject = async (options: InjectOptions) => (await app.http()).inject(options);
  const chat = async (target: TestApp, chatbotId: string, userMessage: string, messageId?: string) => {
    const res = await (await target.http()).inject({
      method: 'POST',
      url: `/api/chatbot-message/${chatbotId}`,
      payload: { userMessage, visitorId: 'visitor-1', ...(messageId ? { messageId } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as {
      reply: string;
      silent: boolean;
      duplicate: boolean;
      attachment: { name: string } | null;
    };
  };
  const saveBot = async (target: TestApp, token: string, extra: Record<string, unknown>) => {
    const res = await (await target.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${token}` },
      payload: { business_name: 'El Pato Pepe', business_description: 'Restaurante en Madrid.', ...extra },
    });
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { id: string }).id;
    // Followers chat with it by id: its web service on (issue 24 §2).
    await enableWeb((await target.http()).inject.bind(await target.http()), token, id);
    return id;
  };

  beforeAll(async () => {
    llm = await startFakeOpenAi({
      reply: (r) => {
        const next = script.shift();
        if (!next) return { text: 'Respuesta sin guion.' };
        return typeof next === 'function' ? next(r) : next;
      },
    });
    telegram = await startFakeTelegram();
    app = await createTestApp(kind, {
      llm: fakeLlm(llm.baseURL),
      plugins: [bookingPlugin(state)],
      env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
    });
    owner = await app.owner('pepe@example.com');
    botId = await saveBot(app, owner.token, { enable_reservations: true });
    const other = await app.owner('otro@example.com');
    plainBotId = await saveBot(app, other.token, { business_name: 'Sin Reservas' });
    offlineApp = await createTestApp(kind, {
      llm: null,
      plugins: [bookingPlugin({ bookings: state.bookings })],
    });
  });
  afterAll(async () => {
    await app?.close();
    await offlineApp?.close();
    await llm?.close();
    await telegram?.close();
  });

  it('lets the model call a plugin tool, sends the result back, and answers with the final text', async () => {
    const before = llm.requests.length;
    script = [
      {
        text: 'Un momento, lo miro. ',
        toolCalls: [{ name: 'book_table', arguments: { people: 4, time: '21:00' } }],
      },
      { text: 'Hecho: mesa para 4 a las 21:00, código PEPE42.' },
    ];
    const answer = await chat(app, botId, 'Mesa para 4 a las 21:00', 'tool-1');
    expect(answer.reply).toBe('Un momento, lo miro.\n\nHecho: mesa para 4 a las 21:00, código PEPE42.');
    const [first, second] = llm.requests.slice(before);
    expect(first!.tools?.map((t) => t.function.name)).toEqual(['book_table', 'kitchen_status']);
    expect(first!.tools?.[0]?.function.parameters).toMatchObject({
      type: 'object',
      properties: { people: { type: 'integer', minimum: 1, maximum: 12 }, time: { type: 'string' } },
      required: ['people', 'time'],
    });
    const toolCall = second!.messages.at(-2)!;
    expect(toolCall).toMatchObject({
      role: 'assistant',
      tool_calls: [{ function: { name: 'book_table', arguments: '{"people":4,"time":"21:00"}' } }],
    });
    const result = second!.messages.at(-1)!;
    expect(result.role).toBe('tool');
    expect(result.tool_call_id).toBe(toolCall.tool_calls![0]!.id);
    expect(JSON.parse(result.content)).toEqual({ code: 'PEPE42', people: 4, time: '21:00' });
    expect([...state.bookings.keys()].filter((k) => k.includes(':tool-1#'))).toHaveLength(1);

    // The calls are kept with the turn.
    const stored = await app.store.db
      .selectFrom('conversation_messages')
      .select('meta')
      .where('chatbot_id', '=', botId)
      .where('sender', '=', 'bot')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect((stored.meta as StoredTurnMeta).tools).toEqual([
      {
        name: 'book_table',
        plugin: 'booking-test',
        input: { people: 4, time: '21:00' },
        output: { code: 'PEPE42', people: 4, time: '21:00' },
        error: false,
      },
    ]);

    // The same message again: the stored answer, no model call, nothing booked twice.
    const requests = llm.requests.length;
    const again = await chat(app, botId, 'Mesa para 4 a las 21:00', 'tool-1');
    expect(again).toMatchObject({ reply: answer.reply, duplicate: true });
    expect(llm.requests.length).toBe(requests);
    expect([...state.bookings.keys()].filter((k) => k.includes(':tool-1#'))).toHaveLength(1);
  });

  it('offers no tools to a bot that has not enabled the plugin', async () => {
    script = [{ text: 'Hola.' }];
    await chat(app, plainBotId, 'Mesa para 2', 'plain-1');
    expect(llm.requests.at(-1)!.tools).toBeUndefined();
  });

  it('gives the model an invalid input or a failing tool as its result, and the turn still answers', async () => {
    const before = llm.requests.length;
    script = [
      {
        text: '',
        toolCalls: [
          { name: 'book_table', arguments: { people: 'muchos', time: '21:00' } },
          { name: 'kitchen_status', arguments: {} },
        ],
      },
      { text: 'Lo siento, no puedo reservar ahora mismo.' },
    ];
    const answer = await chat(app, botId, 'Reserva para muchos', 'tool-2');
    expect(answer.reply).toBe('Lo siento, no puedo reservar ahora mismo.');
    const results = llm.requests[before + 1]!.messages.filter((m) => m.role === 'tool');
    expect(results.map((m) => JSON.parse(m.content).error)).toEqual([
      expect.stringContaining('Invalid input for book_table'),
      'La cocina no responde.',
    ]);
  });

  it(`stops offering tool rounds after ${MAX_TOOL_ROUNDS} and requires an answer in words`, async () => {
    const before = llm.requests.length;
    script = Array.from(
      { length: MAX_TOOL_ROUNDS + 1 },
      () => (r: RecordedRequest) =>
        r.tool_choice === 'none'
          ? { text: 'No he podido confirmarlo.' }
          : { text: '', toolCalls: [{ name: 'kitchen_status', arguments: {} }] },
    );
    const answer = await chat(app, botId, '¿Está abierta la cocina?', 'tool-3');
    expect(answer.reply).toBe('No he podido confirmarlo.');
    const made = llm.requests.slice(before);
    expect(made).toHaveLength(MAX_TOOL_ROUNDS + 1);
    expect(made.at(-1)!.tool_choice).toBe('none');
  });

  it('rewrites the follower’s text before matching, and keeps what they sent', async () => {
    const { body, contentType } = await multipart(
      { chatbotId: botId, keyword: 'carta,menu', context: 'La carta del restaurante.' },
      {
        field: 'file',
        name: 'carta.pdf',
        data: readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url)),
      },
    );
    const up = await inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': contentType },
      payload: body,
    });
    expect(up.statusCode, up.body).toBe(201);
    script = [{ text: 'Aquí tienes la carta.' }];
    const answer = await chat(app, botId, 'reescribe:carta', 'rewrite-1');
    expect(answer.attachment?.name).toMatch(/carta/);
    const row = await app.store.db
      .selectFrom('conversation_messages')
      .select(['text', 'meta'])
      .where('chatbot_id', '=', botId)
      .where('message_id', '=', 'rewrite-1')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ text: 'carta', meta: { originalText: 'reescribe:carta' } });
  });

  it('keeps the bot quiet when a middleware says so: the message is stored, nothing is answered, even on a replay', async () => {
    const requests = llm.requests.length;
    const answer = await chat(app, botId, 'silencio', 'silent-1');
    expect(answer).toMatchObject({ reply: '', silent: true, duplicate: false });
    const again = await chat(app, botId, 'silencio', 'silent-1');
    expect(again).toMatchObject({ reply: '', silent: true, duplicate: true });
    expect(llm.requests.length).toBe(requests);
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'meta'])
      .where('chatbot_id', '=', botId)
      .where((eb) =>
        eb.or([
          eb('message_id', '=', 'silent-1'),
          eb(
            'reply_to',
            'in',
            eb.selectFrom('conversation_messages').select('id').where('message_id', '=', 'silent-1'),
          ),
        ]),
      )
      .execute();
    expect(rows).toEqual([
      {
        sender: 'user',
        text: 'silencio',
        meta: { silent: { plugin: 'booking-test', reason: 'the owner took over' } },
      },
    ]);
  });

  it('goes on without a middleware that throws', async () => {
    script = [{ text: 'Sigo aquí.' }];
    expect((await chat(app, botId, 'rompe', 'broken-1')).reply).toBe('Sigo aquí.');
  });

  it('lets an offline dialogue drive the plugin’s tools when no LLM is configured', async () => {
    const offlineOwner = await offlineApp.owner('sin-ia@example.com');
    const id = await saveBot(offlineApp, offlineOwner.token, { enable_reservations: true });
    const answer = await chat(offlineApp, id, 'Quiero reservar mesa', 'offline-1');
    expect(answer.reply).toBe('Reserva hecha: {"code":"PEPE42","people":2,"time":"20:00"}');
    const stored = await offlineApp.store.db
      .selectFrom('conversation_messages')
      .select('meta')
      .where('chatbot_id', '=', id)
      .where('sender', '=', 'bot')
      .executeTakeFirstOrThrow();
    expect((stored.meta as StoredTurnMeta).tools?.map((t) => t.name)).toEqual(['book_table']);
  });

  it('tells a plugin what each channel can do before it tries to reach a follower there', () => {
    expect(state.ctx!.capabilities('telegram')).toMatchObject({
      push: true,
      voiceNotes: true,
      maxTextLength: 4096,
    });
    expect(state.ctx!.capabilities('web')).toMatchObject({ push: true, voiceNotes: true });
    expect(state.ctx!.capabilities('fax')).toBeNull();
  });

  it('reaches a Telegram follower through the adapter after the outbound transformers, and stores the message', async () => {
    const bot = telegram.addBot('PatoPepeBot');
    const connected = await inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { telegramToken: bot.token, telegramUsername: bot.username, chatbotId: botId },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    const receipt = await state.ctx!.send(
      { chatbotId: botId, channel: 'telegram', chatId: '777' },
      { text: 'Recordatorio: mañana a las 21:00' },
    );
    const sent = telegram.callsOf(bot.token, 'sendMessage').at(-1)!;
    expect(sent.params).toMatchObject({ chat_id: '777', text: 'Recordatorio: mañana a las 21:00 ✓' });
    // The receipt names the message in the inbound id format: a reply to it arrives with it as replyTo.
    expect(receipt.messageIds).toEqual([`777:${sent.result!.message_id}`]);
    const stored = await app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'ai_response', 'user_id', 'channel'])
      .where('chatbot_id', '=', botId)
      .where('user_id', '=', '777')
      .execute();
    expect(stored).toEqual([
      {
        sender: 'bot',
        text: 'Recordatorio: mañana a las 21:00 ✓',
        ai_response: false,
        user_id: '777',
        channel: 'telegram',
      },
    ]);
    // The web channel pushes by storing: the visitor's widget fetches it; an anonymous visitor cannot get it.
    // It has no message ids to give.
    expect(
      await state.ctx!.send({ chatbotId: botId, channel: 'web', chatId: 'visitor-1' }, { text: 'Hola' }),
    ).toEqual({ messageIds: [] });
    await expect(
      state.ctx!.send({ chatbotId: botId, channel: 'web', chatId: 'anonymous' }, { text: 'Hola' }),
    ).rejects.toThrow('anonymous web visitor');
    // The IALanding's visitors are the web adapter's too (issue 27 §3): stored under `ialanding`.
    expect(
      await state.ctx!.send({ chatbotId: botId, channel: 'ialanding', chatId: 'v' }, { text: 'Hola' }),
    ).toEqual({ messageIds: [] });
    await expect(
      state.ctx!.send({ chatbotId: botId, channel: 'fax', chatId: 'v' }, { text: 'Hola' }),
    ).rejects.toThrow('No existe el canal fax');
  });

  it('reads a voice note’s bytes through the follower’s channel for a middleware', async () => {
    const bot = (await app.store.db
      .selectFrom('chatbots')
      .select('telegram_username')
      .where('id', '=', botId)
      .executeTakeFirstOrThrow()) as { telegram_username: string };
    expect(bot.telegram_username).toBe('PatoPepeBot');
    const token = telegram.calls.find((c) => c.method === 'getMe')!.token;
    telegram.addFile('voice-abc', Buffer.alloc(1234, 1), 'audio/ogg');
    script = [(r) => ({ text: `Oído: ${r.messages.at(-1)!.content}` })];
    await telegram.deliver(token, {
      update_id: telegram.nextUpdateId(),
      message: {
        message_id: 91,
        date: Math.floor(Date.now() / 1000),
        chat: { id: 888, type: 'private', first_name: 'Ana' },
        from: { id: 888, is_bot: false, first_name: 'Ana' },
        voice: { file_id: 'voice-abc', file_unique_id: 'uvoice', duration: 2, mime_type: 'audio/ogg' },
      },
    });
    const calls = await telegram.waitFor((all) =>
      all.some((c) => c.method === 'sendMessage' && String(c.params.chat_id) === '888'),
    );
    const reply = calls.find((c) => c.method === 'sendMessage' && String(c.params.chat_id) === '888')!;
    expect(reply.params.text).toBe('Oído: nota de 1234 bytes ✓');
    const row = await app.store.db
      .selectFrom('conversation_messages')
      .select(['text', 'meta'])
      .where('chatbot_id', '=', botId)
      .where('user_id', '=', '888')
      .where('sender', '=', 'user')
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      text: 'nota de 1234 bytes',
      meta: { received: [{ kind: 'voice', channelFileId: 'voice-abc', mime: 'audio/ogg' }] },
    });
  });

  it('runs a plugin’s job from the durable queue when it is due, reaching the follower once', async () => {
    await app.startChannels();
    const token = telegram.calls.find((c) => c.method === 'getMe')!.token;
    const runAt = new Date(Date.now() + 1500);
    const data = { chatbotId: botId, chatId: '999', text: 'Te esperamos hoy a las 21:00' };
    expect(await state.ctx!.jobs.send(reminder, data, { runAt, key: 'reservation-1:2h' })).not.toBeNull();
    // The same reminder again (e.g. a retried booking) is not queued twice.
    expect(await state.ctx!.jobs.send(reminder, data, { runAt, key: 'reservation-1:2h' })).toBeNull();
    await telegram.waitFor((all) =>
      all.some((c) => c.method === 'sendMessage' && String(c.params.chat_id) === '999'),
    );
    const sent = telegram.callsOf(token, 'sendMessage').filter((c) => String(c.params.chat_id) === '999');
    expect(sent[0]!.at).toBeGreaterThanOrEqual(runAt.getTime());
    await new Promise((r) => setTimeout(r, 1500));
    expect(sent.map((c) => c.params.text)).toEqual(['Te esperamos hoy a las 21:00 ✓']);
    expect(
      telegram.callsOf(token, 'sendMessage').filter((c) => String(c.params.chat_id) === '999'),
    ).toHaveLength(1);
  });

  it('applies a plugin’s own migrations once, and guards its owner routes', async () => {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from booking_test_notes`.execute(
      app.store.db,
    );
    expect(rows[0]!.n).toBe(0);
    expect((await inject({ method: 'GET', url: '/api/booking-test/whoami' })).statusCode).toBe(401);
    const me = await inject({
      method: 'GET',
      url: '/api/booking-test/whoami',
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(me.json()).toEqual({ owner: owner.id });
  });
});
