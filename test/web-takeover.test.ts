/**
 * Takeover as the web visitor sees it (issue 27 §3), over HTTP on PostgreSQL and PGlite: the
 * owner's reply reaches the visitor labelled as a person ("Equipo de <business>", or the owner's
 * name once set) in the config, the pushed message and the stream; a turn while the bot is paused
 * answers `silent` with no reply text (the widget shows no bubble); a returning visitor's thread
 * comes back from `GET /api/web/:key/history`, theirs included, and nobody else's; and the owner
 * can reply to an IALanding visitor (channel `ialanding`, once 409 `cannotReply`), stored under
 * that channel and pushed to that browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

interface Thread {
  messages: Array<{ id: string; text: string; from: string; name: string | null; attachment: unknown }>;
  last: string | null;
}

describe.each(dialectsOf(import.meta.url))('takeover as the web visitor sees it on %s', (kind) => {
  let app: TestApp;
  let owner: { id: string; token: string };
  let botId: string;
  let key: string;

  const call = async (method: 'GET' | 'POST', url: string, payload?: object, auth = true) =>
    (await app.http()).inject({
      method,
      url,
      ...(auth ? { headers: { authorization: `Bearer ${owner.token}` } } : {}),
      ...(payload ? { payload } : {}),
    });
  const ok = async (method: 'GET' | 'POST', url: string, payload?: object, auth = true) => {
    const res = await call(method, url, payload, auth);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const visitorSays = (visitorId: string, userMessage: string, channel = 'web') =>
    ok('POST', `/api/web/${key}/message`, { userMessage, visitorId, channel }, false);
  const ownerReply = (channel: string, userId: string, text: string) =>
    call('POST', `/api/conversations/${botId}/reply`, { channel, userId, text });
  const thread = async (visitorId: string) =>
    (await ok(
      'GET',
      `/api/web/${key}/history?visitorId=${visitorId}`,
      undefined,
      false,
    )) as unknown as Thread;

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null });
    owner = await app.owner('takeover@example.com');
    botId = (
      await ok('POST', '/api/save-chatbot', {
        business_name: 'Café Directo',
        business_description: 'Cafetería en Valencia. Abrimos de lunes a sábado de 8:00 a 20:00.',
        idioma: 'Español',
      })
    ).id as string;
    key = (await ok('POST', '/api/charla-web/key', { chatbotId: botId })).charla_key as string;
    await ok('POST', '/api/charla-web/toggle', { chatbotId: botId, enabled: true });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('labels the owner as a person, keeps a paused turn silent and restores the thread', async () => {
    const visitor = 'visitante-takeover-1';
    const first = await visitorSays(visitor, 'Hola, ¿tenéis terraza?');
    expect(first.silent).toBe(false);
    expect(String(first.reply).length).toBeGreaterThan(0);

    // The widget's config names who answers when the owner writes (no name set: the team).
    const config = await ok('GET', `/api/web/${key}/config`, undefined, false);
    expect(config.person).toBe('Equipo de Café Directo');
    expect((config.texts as Record<string, string>).person).toBe('Te atiende una persona');

    expect((await ownerReply('web', visitor, 'Sí, tenemos terraza.')).statusCode).toBe(200);
    const pushed = await ok('GET', `/api/web/${key}/pushed?visitorId=${visitor}`, undefined, false);
    expect(pushed.messages).toEqual([
      expect.objectContaining({
        text: 'Sí, tenemos terraza.',
        from: 'owner',
        name: 'Equipo de Café Directo',
      }),
    ]);

    // While paused, the visitor's message gets no reply text: the widget shows no empty bubble.
    const quiet = await visitorSays(visitor, '¿Y tenéis sitio para 4?');
    expect(quiet).toMatchObject({ silent: true, reply: '' });

    // The owner sets their name: the visitor sees it from then on.
    await app.store.db
      .updateTable('user_profiles')
      .set({ full_name: 'Ana' })
      .where('user_id', '=', owner.id)
      .execute();
    expect((await ownerReply('web', visitor, 'Sí, os guardo una mesa.')).statusCode).toBe(200);

    // A new tab or the next day: the thread from the server, the visitor's messages included.
    const past = await thread(visitor);
    expect(past.messages.map((m) => [m.from, m.text, m.name])).toEqual([
      ['user', 'Hola, ¿tenéis terraza?', null],
      ['bot', String(first.reply), null],
      ['owner', 'Sí, tenemos terraza.', 'Ana'],
      ['user', '¿Y tenéis sitio para 4?', null],
      ['owner', 'Sí, os guardo una mesa.', 'Ana'],
    ]);
    expect(past.last).toBe(past.messages.at(-1)!.id);
    // Nobody else's thread, and an unknown key is 404.
    expect((await thread('otro-visitante')).messages).toEqual([]);
    expect(
      (await call('GET', `/api/web/no-existe/history?visitorId=${visitor}`, undefined, false)).statusCode,
    ).toBe(404);
  });

  it('lets the owner reply to an IALanding visitor, stored as ialanding and pushed to that browser', async () => {
    const visitor = 'visitante-landing-1';
    await visitorSays(visitor, '¿Hacéis tartas por encargo?', 'ialanding');
    const res = await ownerReply('ialanding', visitor, 'Sí, con 48 h de antelación.');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toHaveProperty('pausedUntil');
    const pushed = await ok('GET', `/api/web/${key}/pushed?visitorId=${visitor}`, undefined, false);
    expect(pushed.messages).toEqual([
      expect.objectContaining({ text: 'Sí, con 48 h de antelación.', from: 'owner' }),
    ]);
    const rows = await app.store.db
      .selectFrom('conversation_messages')
      .select(['channel', 'sender'])
      .where('user_id', '=', visitor)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => `${r.channel}:${r.sender}`)).toEqual([
      'ialanding:user',
      'ialanding:bot',
      'ialanding:owner',
    ]);
    // The bot stays quiet for that visitor now, as on the widget.
    expect(await visitorSays(visitor, '¿Y de chocolate?', 'ialanding')).toMatchObject({
      silent: true,
      reply: '',
    });
  });
});
