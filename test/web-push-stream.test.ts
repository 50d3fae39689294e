/**
 * The visitor's stream (issue 26 §2, issue 27 §3): an owner's reply sent through one Charla node
 * reaches a web visitor's stream held by another within a second (PostgreSQL NOTIFY wakes it; the
 * message is read from the database); a reconnect with `Last-Event-ID` gets what it missed and
 * nothing twice; an unknown key is 404; the polling route still answers. On PostgreSQL the two
 * nodes have their own pools and LISTEN connections; PGlite is one process, so they share it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAMS_PER_ADDRESS } from '../adapters/web/pushed-stream.ts';
import { endLiveStreams } from '../engine/http/sse.ts';
import type { Store } from '../engine/store/connect.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf, twoStores } from './helpers/db.ts';
import { openSseClient, type SseClient } from './helpers/sse-client.ts';

interface Pushed {
  id: string;
  text: string;
  from: 'bot' | 'owner';
  at: string;
}

describe.each(dialectsOf(import.meta.url))('a web visitor’s live stream on %s', (kind) => {
  let stores: [Store, Store];
  let nodeA: TestApp;
  let nodeB: TestApp;
  let base: string;
  let baseB: string;
  let owner: { token: string };
  let botId: string;
  let key: string;
  const streams: SseClient[] = [];
  const visitor = 'visitante-stream-1';

  const ownerCall = async (url: string, payload: object) => {
    const res = await (await nodeB.http()).inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const ownerReply = (text: string) =>
    ownerCall(`/api/conversations/${botId}/reply`, { channel: 'web', userId: visitor, text });
  const stream = async (query: string, headers: Record<string, string> = {}, on = base) => {
    const client = await openSseClient(`${on}/api/web/${key}/pushed/stream?${query}`, headers);
    streams.push(client);
    return client;
  };
  const pushedOf = (client: SseClient) =>
    client.events.filter((e) => e.event === 'pushed').map((e) => e.data as Pushed);

  beforeAll(async () => {
    stores = await twoStores(kind);
    nodeA = await createTestApp(kind, { store: stores[0], llm: null });
    nodeB = await createTestApp(kind, { store: stores[1], llm: null });
    owner = await nodeB.owner('stream@example.com');
    const saved = await ownerCall('/api/save-chatbot', {
      business_name: 'Café Directo',
      business_description: 'Cafetería en Valencia. Abrimos de lunes a sábado de 8:00 a 20:00.',
      idioma: 'Español',
    });
    botId = saved.id as string;
    key = (await ownerCall('/api/charla-web/key', { chatbotId: botId })).charla_key as string;
    await ownerCall('/api/charla-web/toggle', { chatbotId: botId, enabled: true });
    // The visitor wrote first, on the widget (node A answers it).
    await nodeA.engine.handleTurn({
      chatbotId: botId,
      channel: 'web',
      follower: { id: visitor },
      text: 'Hola, ¿tenéis terraza?',
      messageId: 'w-1',
    });
    const http = await nodeA.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    const address = http.server.address();
    if (!address || typeof address === 'string') throw new Error('no address');
    base = `http://127.0.0.1:${address.port}`;
    const httpB = await nodeB.http();
    await httpB.listen({ port: 0, host: '127.0.0.1' });
    baseB = `http://127.0.0.1:${(httpB.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    for (const s of streams) s.close();
    await nodeA?.close();
    await nodeB?.close();
    await stores?.[0].close();
    if (stores?.[1] !== stores?.[0]) await stores?.[1].close();
  });

  it('brings the owner’s reply sent on another node in under a second, then resumes from Last-Event-ID', async () => {
    const first = await stream(`visitorId=${visitor}`);
    // Nothing pushed yet (the turn's answer is not a pushed message); let the stream settle.
    await new Promise((r) => setTimeout(r, 300));
    expect(pushedOf(first)).toEqual([]);

    const sent = Date.now();
    await ownerReply('Sí, tenemos terraza. Soy Ana, la dueña.');
    const event = await first.waitFor('pushed', 3_000);
    expect(event.data).toMatchObject({ text: 'Sí, tenemos terraza. Soy Ana, la dueña.', from: 'owner' });
    expect(event.at - sent).toBeLessThan(1_000);
    const seen = (event.data as Pushed).id;

    // The tab lost its stream; the owner wrote twice meanwhile; the browser reconnects.
    first.close();
    await ownerReply('¿Quieres que te reserve mesa fuera?');
    await ownerReply('Hoy hace sol.');
    const second = await stream(`visitorId=${visitor}`, { 'last-event-id': seen });
    await second.waitFor((e) => e.event === 'pushed' && (e.data as Pushed).text === 'Hoy hace sol.', 3_000);
    expect(pushedOf(second).map((m) => m.text)).toEqual([
      '¿Quieres que te reserve mesa fuera?',
      'Hoy hace sol.',
    ]);

    // Another visitor's stream on this bot hears nothing of it.
    const stranger = await stream('visitorId=otro-visitante');
    await ownerReply('Y mañana también.');
    await second.waitFor(
      (e) => e.event === 'pushed' && (e.data as Pushed).text === 'Y mañana también.',
      3_000,
    );
    expect(pushedOf(stranger)).toEqual([]);
    expect(pushedOf(second)).toHaveLength(3);
  });

  it('answers 404 for an unknown key, with CORS, and the polling route still answers', async () => {
    const unknown = await fetch(`${base}/api/web/no-existe/pushed/stream?visitorId=${visitor}`, {
      headers: { accept: 'text/event-stream', origin: 'https://tienda.example' },
    });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('access-control-allow-origin')).toBe('*');

    // The stream's own answer carries CORS too: a widget on any site reads it.
    const open = await fetch(`${base}/api/web/${key}/pushed/stream?visitorId=${visitor}`, {
      headers: { origin: 'https://tienda.example' },
    });
    expect(open.status).toBe(200);
    expect(open.headers.get('access-control-allow-origin')).toBe('*');
    expect(open.headers.get('x-accel-buffering')).toBe('no');
    await open.body?.cancel();

    const polled = await fetch(`${base}/api/web/${key}/pushed?visitorId=${visitor}`);
    expect(polled.status).toBe(200);
    const body = (await polled.json()) as { messages: Pushed[]; last: string };
    expect(body.messages.map((m) => m.text)).toEqual([
      'Sí, tenemos terraza. Soy Ana, la dueña.',
      '¿Quieres que te reserve mesa fuera?',
      'Hoy hace sol.',
      'Y mañana también.',
    ]);
    expect(body.last).toBe(body.messages.at(-1)?.id);
    // The stream opened `after` the newest has nothing to send.
    const caughtUp = await stream(`visitorId=${visitor}&after=${body.last}`);
    await new Promise((r) => setTimeout(r, 300));
    expect(pushedOf(caughtUp)).toEqual([]);
  });

  it('a stopping node ends its streams; the browser resumes on the other node without a gap', async () => {
    const onB = await stream(`visitorId=${visitor}`, {}, baseB);
    const backlog = await onB.waitFor(
      (e) => e.event === 'pushed' && (e.data as Pushed).text === 'Y mañana también.',
    );
    const last = (backlog.data as Pushed).id;
    // Node B stops (its preClose hook), and the owner writes before the browser is back.
    expect(endLiveStreams((await nodeB.http()).server)).toBeGreaterThanOrEqual(1);
    await expect.poll(() => onB.ended()).toBe(true);
    await ownerReply('¿Sigues ahí?');
    const onA = await stream(`visitorId=${visitor}`, { 'last-event-id': last });
    await onA.waitFor('pushed', 3_000);
    expect(pushedOf(onA).map((m) => m.text)).toEqual(['¿Sigues ahí?']);
  });

  it(`refuses more than ${MAX_STREAMS_PER_ADDRESS} open streams from one address, and frees a place when one closes`, async () => {
    for (const s of streams.splice(0)) s.close();
    await new Promise((r) => setTimeout(r, 200));
    const many = await Promise.all(
      Array.from({ length: MAX_STREAMS_PER_ADDRESS }, (_, i) => stream(`visitorId=muchos-${i}`)),
    );
    const refused = await fetch(`${base}/api/web/${key}/pushed/stream?visitorId=uno-mas`);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    many[0]!.close();
    await expect
      .poll(async () => {
        const res = await fetch(`${base}/api/web/${key}/pushed/stream?visitorId=uno-mas`);
        await res.body?.cancel();
        return res.status;
      })
      .toBe(200);
  });
});
