/**
 * The minimal adapter of docs/adapters.md (issue 25 §1): the doc's code block is exactly
 * docs/examples/minimal-adapter.ts, and that file, registered as the only channel, takes a real
 * message through the engine to its `send`: the offline responder's reply, stored with the turn, a
 * plugin's outbound transformer applied once, "typing…" shown while the turn ran; a plain `/start`
 * gets the greeting from the engine, stored too.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEchoAdapter, ECHO, type EchoSent } from '../docs/examples/minimal-adapter.ts';
import { greeting } from '../engine/conversation/texts.ts';
import { definePlugin, type FeaturePlugin } from '../engine/registry/index.ts';
import { createTestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, ownerWithBot, withInject } from './helpers/owners.ts';

const EXAMPLE = new URL('../docs/examples/minimal-adapter.ts', import.meta.url);
const DOC = new URL('../docs/adapters.md', import.meta.url);

/** A plugin whose outbound transformer marks what it saw (to count that it ran once). */
const mark = definePlugin({
  id: 'mark',
  setup: () => ({ outbound: [(message) => ({ ...message, text: `${message.text} ✓` })] }),
});

describe('the docs’ example', () => {
  it('is the file the test registers, quoted whole, under 150 lines', () => {
    const file = readFileSync(EXAMPLE, 'utf8');
    const doc = readFileSync(DOC, 'utf8');
    const marker = '<!-- docs/examples/minimal-adapter.ts -->\n```ts\n';
    const start = doc.indexOf(marker);
    expect(start).toBeGreaterThan(-1);
    const block = doc.slice(start + marker.length, doc.indexOf('```', start + marker.length));
    expect(block).toBe(file);
    expect(file.split('\n').length).toBeLessThan(150);
  });
});

describe.each(dialectsOf(import.meta.url))('a minimal push adapter on %s', (kind) => {
  let app: App;
  let botId: string;
  const sent: EchoSent[] = [];
  const typing: string[] = [];

  beforeAll(async () => {
    app = await withInject(
      await createTestApp(kind, {
        adapters: [createEchoAdapter(sent, typing)],
        // test/helpers/app.ts types plugins as FeaturePlugin<never>.
        plugins: [mark as unknown as FeaturePlugin<never>],
      }),
    );
    ({ botId } = await ownerWithBot(app, 'eco@example.com', { business_name: 'Eco Bar', idioma: 'Español' }));
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (body: Record<string, unknown>) =>
    app.inject({ method: 'POST', url: `/channels/echo/${botId}`, payload: body });

  const stored = () =>
    app.store.db
      .selectFrom('conversation_messages')
      .select(['sender', 'text', 'message_id'])
      .where('chatbot_id', '=', botId)
      .where('channel', '=', ECHO)
      .orderBy('id')
      .execute();

  it('runs a message through the engine to the adapter’s send, once, transformed once', async () => {
    const res = await post({ chatId: 'f1', id: 'm1', text: '¿A qué hora abrís?' });
    expect(res.statusCode).toBe(200);
    expect(sent).toHaveLength(1);
    const [out] = sent;
    expect(out).toMatchObject({ chatbotId: botId, chatId: 'f1' });
    expect(out!.message.text.endsWith(' ✓')).toBe(true);
    expect(out!.message.text.endsWith(' ✓ ✓')).toBe(false);
    expect(typing).toEqual(['f1']);
    const rows = await stored();
    expect(rows.map((r) => r.sender)).toEqual(['user', 'bot']);
    expect(rows[0]).toMatchObject({ text: '¿A qué hora abrís?', message_id: 'm1' });
    // The engine stored its reply; the transformer's mark is what was sent, not what was stored.
    expect(`${rows[1]!.text} ✓`).toBe(out!.message.text);
  });

  it('greets a plain /start from the engine and stores the pair', async () => {
    const res = await post({ chatId: 'f2', id: 'm2', text: '/start' });
    expect(res.statusCode).toBe(200);
    const hello = greeting('es', 'Eco Bar');
    expect(sent.at(-1)).toMatchObject({ chatId: 'f2', message: { text: hello } });
    expect(typing).toEqual(['f1']); // nothing to wait for: no "typing…"
    const rows = await stored();
    expect(rows.slice(-2)).toMatchObject([
      { sender: 'user', text: '/start', message_id: 'm2' },
      { sender: 'bot', text: hello },
    ]);
  });

  it('answers a channel no adapter serves (the CLI) only by returning the reply', async () => {
    const inbound = {
      chatbotId: botId,
      channel: 'cli',
      follower: { id: 'cli:ana' },
      text: 'Hola',
      messageId: 'c1',
    };
    const reply = await app.dispatcher.dispatch(undefined, inbound, { deliver: 'return' });
    expect(reply.result?.reply).toBeTruthy();
    expect(reply.message?.text).toBe(reply.result?.reply); // no capabilities: not transformed
    expect(reply.receipt).toBeNull();
    await expect(app.dispatcher.dispatch(undefined, inbound, { deliver: 'send' })).rejects.toThrow(
      'No existe el canal cli.',
    );
  });
});
