/**
 * The durable inbox of channel updates (issue 5; engine/channels/inbox.ts), on each store: an update
 * stored twice is one row and handled once; a chat's updates are handled in order while another
 * chat's run alongside; a failing handler is retried and, after its last attempt, the row is kept as
 * failed with its error; a deferred update stays pending and is handled when recovered; two
 * processes recovering the same rows answer each once, and a dead process's claim is taken over
 * after its lease; old handled rows are pruned while pending and failed ones stay.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChannelInbox, DeferUpdate } from '../engine/channels/inbox.ts';
import { createLogger } from '../engine/logger.ts';
import { pruneDoneUpdates } from '../engine/store/queries/inbox.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(dialectsOf(import.meta.url))('the channel inbox on %s', (kind) => {
  let app: TestApp;
  let botId: string;
  const log = createLogger({ level: 'silent' });

  beforeAll(async () => {
    app = await createTestApp(kind);
    const owner = await app.owner('inbox@example.com');
    const bot = await app.store.db
      .insertInto('chatbots')
      .values({ user_id: owner.id, business_name: 'Inbox', business_description: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    botId = bot.id;
  });
  afterAll(async () => {
    await app?.close();
  });

  const rows = (channel: string) =>
    app.store.db
      .selectFrom('channel_updates')
      .select(['update_key', 'status', 'attempts', 'last_error'])
      .where('channel', '=', channel)
      .orderBy('id')
      .execute();

  it('stores a redelivery once and handles a chat in order, other chats alongside', async () => {
    const inbox = new ChannelInbox(app.store.db, log);
    const handled: string[] = [];
    inbox.register('orden', async (row) => {
      // The first update of chat A is the slowest: order within a chat must still hold.
      if (row.updateKey === 'a1') await sleep(150);
      handled.push(row.updateKey);
    });
    const accept = (updateKey: string, chatId: string) =>
      inbox.accept({ channel: 'orden', chatbotId: botId, updateKey, chatId, payload: { updateKey } });
    expect(await accept('a1', 'A')).toBe('stored');
    expect(await accept('a1', 'A')).toBe('duplicate');
    await accept('a2', 'A');
    await accept('b1', 'B');
    await inbox.idle();
    expect(handled.indexOf('a1')).toBeLessThan(handled.indexOf('a2'));
    expect(handled.indexOf('b1')).toBeLessThan(handled.indexOf('a1')); // B did not wait for A
    expect(handled.filter((k) => k === 'a1')).toHaveLength(1);
    expect((await rows('orden')).map((r) => r.status)).toEqual(['done', 'done', 'done']);
  });

  it('retries a failing handler and keeps the update as failed with its error after the last attempt', async () => {
    const inbox = new ChannelInbox(app.store.db, log, { maxAttempts: 3, retryDelayMs: () => 10 });
    let calls = 0;
    inbox.register('falla', async () => {
      calls++;
      throw new Error('Telegram no responde');
    });
    await inbox.accept({ channel: 'falla', chatbotId: botId, updateKey: 'f1', chatId: 'C', payload: {} });
    await inbox.idle();
    expect(calls).toBe(3);
    expect(await rows('falla')).toEqual([
      { update_key: 'f1', status: 'failed', attempts: 3, last_error: 'Telegram no responde' },
    ]);
  });

  it('leaves a deferred update pending and handles it when recovered', async () => {
    const inbox = new ChannelInbox(app.store.db, log);
    let connected = false;
    const handled: string[] = [];
    inbox.register('pausa', async (row) => {
      if (!connected) throw new DeferUpdate('bot paused');
      handled.push(row.updateKey);
    });
    await inbox.accept({ channel: 'pausa', chatbotId: botId, updateKey: 'p1', chatId: 'D', payload: {} });
    await inbox.idle();
    expect(await rows('pausa')).toMatchObject([{ status: 'pending', attempts: 0 }]);
    connected = true;
    expect(await inbox.recover('pausa', botId)).toBe(1);
    await inbox.idle();
    expect(handled).toEqual(['p1']);
    expect(await rows('pausa')).toMatchObject([{ status: 'done' }]);
  });

  it('answers an update once when two processes recover it, and takes over a dead process’s claim', async () => {
    const handled: string[] = [];
    const slowHandler = async (row: { updateKey: string }) => {
      await sleep(50);
      handled.push(row.updateKey);
    };
    // Stored by a process that died before handling them.
    const dead = new ChannelInbox(app.store.db, log, { leaseMs: 400 });
    dead.register('dos', async () => {
      throw new DeferUpdate('not handled here');
    });
    for (const key of ['d1', 'd2', 'd3'])
      await dead.accept({ channel: 'dos', chatbotId: botId, updateKey: key, chatId: key, payload: {} });
    await dead.idle();
    await dead.close();
    const one = new ChannelInbox(app.store.db, log, { leaseMs: 400 });
    const two = new ChannelInbox(app.store.db, log, { leaseMs: 400 });
    one.register('dos', slowHandler);
    two.register('dos', slowHandler);
    await Promise.all([one.recover('dos'), two.recover('dos')]);
    await Promise.all([one.idle(), two.idle()]);
    expect(handled.sort()).toEqual(['d1', 'd2', 'd3']);

    // A claim that is not renewed (its process died mid-answer) is taken over after the lease.
    await app.store.db
      .insertInto('channel_updates')
      .values({
        channel: 'dos',
        chatbot_id: botId,
        update_key: 'd4',
        chat_id: 'd4',
        payload: '{}',
        claimed_at: new Date(),
      })
      .execute();
    expect(await one.recover('dos')).toBe(0);
    await sleep(500);
    expect(await one.recover('dos')).toBe(1);
    await one.idle();
    expect(handled).toContain('d4');
    await one.close();
    await two.close();
  });

  it('prunes old handled updates and keeps pending and failed ones', async () => {
    const deleted = await pruneDoneUpdates(app.store.db, new Date(Date.now() + 60_000));
    expect(deleted).toBe(8); // orden ×3, pausa, dos ×4
    const left = await app.store.db.selectFrom('channel_updates').select('status').execute();
    expect(left.map((r) => r.status)).toEqual(['failed']);
  });
});
