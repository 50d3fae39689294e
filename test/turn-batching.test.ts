/**
 * Group commit of the turn's read and write (engine/store/micro-batch.ts, issue 25 speed step):
 * turns stored and read at the same moment share statements, and a follower notices nothing of it
 * — each turn is stored once with its own answer, in order, a message id sent twice at once is
 * stored once, each read gets its own conversation, and one bad turn in a batch fails alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_META } from '../engine/conversation/turn/persist.ts';
import { MicroBatcher } from '../engine/store/micro-batch.ts';
import { loadConversation, persistTurn, type TurnToStore } from '../engine/store/queries/messages.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

describe('MicroBatcher', () => {
  it('runs the calls of one event-loop turn as one batch, and those made while it runs as the next', async () => {
    const batches: number[][] = [];
    let release: () => void = () => {};
    let started: () => void = () => {};
    const running = new Promise<void>((r) => (started = r));
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        batches.push([...items]);
        if (batches.length === 1) {
          started();
          await new Promise<void>((r) => (release = r));
        }
        return items.map((n) => n * 10);
      },
      { concurrency: 1 },
    );
    const first = [1, 2].map((n) => batcher.call(n));
    await running;
    const rest = [3, 4, 5].map((n) => batcher.call(n));
    release();
    expect(await Promise.all([...first, ...rest])).toEqual([10, 20, 30, 40, 50]);
    expect(batches).toEqual([
      [1, 2],
      [3, 4, 5],
    ]);
    // Idle again: a lone call runs alone, without waiting for company.
    expect(await batcher.call(6)).toBe(60);
    expect(batches.at(-1)).toEqual([6]);
  });

  it('fails only the item that fails when it shares a batch', async () => {
    let release: () => void = () => {};
    let calls = 0;
    const batcher = new MicroBatcher<number, number>(
      async (items) => {
        if (calls++ === 0) await new Promise<void>((r) => (release = r));
        if (items.includes(13)) throw new Error('unlucky');
        return items.map((n) => n + 1);
      },
      { concurrency: 1 },
    );
    const first = batcher.call(0);
    await new Promise((r) => setImmediate(r));
    const results = Promise.allSettled([12, 13, 14].map((n) => batcher.call(n)));
    release();
    await first;
    const settled = await results;
    expect(settled.map((s) => (s.status === 'fulfilled' ? s.value : (s.reason as Error).message))).toEqual([
      13,
      'unlucky',
      15,
    ]);
  });
});

describe.each(dialectsOf(import.meta.url))('turns stored and read at once on %s', (kind) => {
  let app: TestApp;
  let botId: string;
  const turn = (follower: string, n: number, over: Partial<TurnToStore> = {}): TurnToStore => ({
    chatbotId: botId,
    channel: 'web',
    userId: follower,
    username: null,
    messageId: `${follower}:${n}`,
    userText: `pregunta ${n} de ${follower}`,
    botText: `respuesta ${n} para ${follower}`,
    meta: EMPTY_META,
    ...over,
  });

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null });
    const owner = await app.owner('lotes@example.com');
    botId = (
      await app.store.db
        .insertInto('chatbots')
        .values({
          user_id: owner.id,
          business_name: 'Lotes',
          business_description: 'Tienda.',
          idioma: 'Español',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('stores 60 turns of 20 followers sent at once, each with its own answer and in order', async () => {
    const followers = Array.from({ length: 20 }, (_, i) => `f${i}`);
    for (const n of [1, 2, 3]) {
      const results = await Promise.all(followers.map((f) => persistTurn(app.store.db, turn(f, n))));
      results.forEach((r, i) => {
        expect(r.duplicate).toBe(false);
        expect(r.turn.botText).toBe(`respuesta ${n} para ${followers[i]}`);
      });
    }
    const states = await Promise.all(
      followers.map((f) =>
        loadConversation(app.store.db, {
          chatbotId: botId,
          channel: 'web',
          userId: f,
          withHistory: true,
          messageId: `${f}:2`,
          limit: 12,
        }),
      ),
    );
    states.forEach((state, i) => {
      const f = followers[i];
      expect(state.history.map((h) => h.text)).toEqual(
        [1, 2, 3].flatMap((n) => [`pregunta ${n} de ${f}`, `respuesta ${n} para ${f}`]),
      );
      expect(state.stored).toMatchObject({
        userText: `pregunta 2 de ${f}`,
        botText: `respuesta 2 para ${f}`,
      });
    });
    const followerRows = await app.store.db
      .selectFrom('followers')
      .select('external_id')
      .where('chatbot_id', '=', botId)
      .execute();
    expect(followerRows.map((r) => r.external_id).sort()).toEqual([...followers].sort());
  });

  it('stores a message id sent twice at once once, and answers the second with the first’s answer', async () => {
    const [a, b] = await Promise.all([
      persistTurn(app.store.db, turn('twice', 1)),
      persistTurn(app.store.db, turn('twice', 1, { botText: 'otra respuesta' })),
    ]);
    expect([a.duplicate, b.duplicate].sort()).toEqual([false, true]);
    expect(a.turn.botText).toBe(b.turn.botText);
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .select('sender')
      .where('chatbot_id', '=', botId)
      .where('user_id', '=', 'twice')
      .execute();
    expect(rows.map((r) => r.sender).sort()).toEqual(['bot', 'user']);
  });

  it('fails only the turn that cannot be stored when turns are stored together', async () => {
    const results = await Promise.allSettled([
      persistTurn(app.store.db, turn('ok1', 1)),
      persistTurn(app.store.db, turn('bad', 1, { chatbotId: 'no-such-bot' })),
      persistTurn(app.store.db, turn('ok2', 1)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
  });
});
