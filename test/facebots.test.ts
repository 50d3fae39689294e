/**
 * The Facebots directory (issue 16 §4; spec 001 §2, §4, §5, §7) through a running Charla: only public
 * bots with a live channel (a connected Telegram bot, or an active IALanding with the web service on)
 * are listed; each sort order and the category filter; pages of 24; a like counts once per visitor
 * and bot, a hidden bot cannot be liked, and 100 likes from one address are cut at the limit.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../engine/rate-limits.ts';
import { type DirectoryAnswer, PAGE_SIZE } from '../plugins/facebots/api.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

describe.each(dialectsOf(import.meta.url))('the Facebots directory on %s', (kind) => {
  let app: TestApp;
  const ids: Record<string, string> = {};

  /** A bot of a new owner, saved through the API, then given channels and counters in the store. */
  const bot = async (
    name: string,
    set: Partial<{
      is_public: boolean;
      telegram: boolean;
      landing: boolean;
      responses: number;
      likes: number;
      created: string;
      category: string;
    }>,
  ) => {
    const owner = await app.owner(`${name.toLowerCase().replace(/\W+/g, '')}@example.com`);
    const saved = await (await app.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: name,
        business_description: `${name} es un negocio de prueba. Abrimos todos los días.`,
        idioma: 'Español',
        is_public: set.is_public ?? true,
        ...(set.category ? { category: set.category } : {}),
      },
    });
    const id = (saved.json() as { id: string }).id;
    await app.store.db
      .updateTable('chatbots')
      .set({
        ...(set.telegram
          ? { telegram_token: 'enc:token', telegram_username: `${name.replace(/\W+/g, '')}Bot` }
          : {}),
        web_enabled: Boolean(set.landing),
        published_at: new Date(),
        responses_count: set.responses ?? 0,
        likes_count: set.likes ?? 0,
        ...(set.created ? { created_at: new Date(set.created) } : {}),
      })
      .where('id', '=', id)
      .execute();
    if (set.landing)
      await app.store.db
        .insertInto('ialandings')
        .values({
          user_id: owner.id,
          chatbot_id: id,
          business_name: name,
          slug: `ialanding-${id.slice(0, 8)}`,
        })
        .execute();
    ids[name] = id;
    return id;
  };
  const list = async (query = '') =>
    (
      await (await app.http()).inject({ method: 'GET', url: `/api/facebots${query}` })
    ).json() as DirectoryAnswer;
  const likeOf = async (id: string, visitorId: string, remoteAddress = '127.0.0.1') =>
    (await app.http()).inject({
      method: 'POST',
      url: `/api/facebots/${id}/like`,
      payload: { visitorId },
      remoteAddress,
    });

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null });
    await bot('Alfa Telegram', { telegram: true, responses: 500, likes: 3, created: '2026-01-10T00:00:00Z' });
    await bot('Beta Landing', { landing: true, responses: 50, likes: 40, created: '2026-03-10T00:00:00Z' });
    await bot('Gamma Tienda', {
      telegram: true,
      responses: 120,
      likes: 10,
      created: '2026-06-10T00:00:00Z',
      category: 'Tienda o Comercio',
    });
    await bot('Delta Privado', { telegram: true, is_public: false, responses: 9999 });
    await bot('Epsilon Sin Canal', { responses: 9999 });
  });
  afterAll(async () => {
    await app?.close();
  });

  it('lists only public bots with a live channel, in each order', async () => {
    const names = (a: DirectoryAnswer) => a.bots.map((b) => b.business_name);
    expect(names(await list())).toEqual(['Alfa Telegram', 'Gamma Tienda', 'Beta Landing']);
    expect(names(await list('?sort=recientes'))).toEqual(['Gamma Tienda', 'Beta Landing', 'Alfa Telegram']);
    expect(names(await list('?sort=antiguos'))).toEqual(['Alfa Telegram', 'Beta Landing', 'Gamma Tienda']);
    expect(names(await list('?sort=relevantes'))).toEqual(['Beta Landing', 'Gamma Tienda', 'Alfa Telegram']);
    const alfa = (await list()).bots[0]!;
    expect(alfa).toMatchObject({
      telegram_username: 'AlfaTelegramBot',
      responses_count: 500,
      likes_count: 3,
      ialanding_slug: null,
      description: expect.stringContaining('Alfa Telegram es un negocio de prueba.'),
    });
    expect((await list('?sort=antiguos')).bots[1]!.ialanding_slug).toMatch(/^ialanding-/);
  });

  it('filters by category and pages by 24', async () => {
    const shops = await list(`?category=${encodeURIComponent('Tienda o Comercio')}`);
    expect(shops.bots.map((b) => b.business_name)).toEqual(['Gamma Tienda']);
    for (let i = 0; i < PAGE_SIZE; i++) await bot(`Relleno ${i}`, { telegram: true, responses: i });
    const first = await list('?sort=populares');
    expect(first.bots).toHaveLength(PAGE_SIZE);
    expect(first.more).toBe(true);
    const second = await list('?sort=populares&page=2');
    expect(second.bots).toHaveLength(3);
    expect(second.more).toBe(false);
    expect(new Set([...first.bots, ...second.bots].map((b) => b.id)).size).toBe(PAGE_SIZE + 3);
    expect(
      (await (await app.http()).inject({ method: 'GET', url: '/api/facebots?sort=raro' })).statusCode,
    ).toBe(400);
  });

  it('counts one like per visitor, and none for a bot that is not listed', async () => {
    const beta = ids['Beta Landing']!;
    const first = await likeOf(beta, 'visitor-aaaa-1');
    expect(first.json()).toEqual({ likes: 41, counted: true });
    expect((await likeOf(beta, 'visitor-aaaa-1')).json()).toEqual({ likes: 41, counted: false });
    expect((await likeOf(beta, 'visitor-bbbb-2')).json()).toEqual({ likes: 42, counted: true });
    expect((await likeOf(ids['Delta Privado']!, 'visitor-aaaa-1')).statusCode).toBe(404);
    expect((await likeOf(ids['Epsilon Sin Canal']!, 'visitor-aaaa-1')).statusCode).toBe(404);
  });

  it('cuts 100 likes from one address at the limit', async () => {
    const gamma = ids['Gamma Tienda']!;
    const codes: number[] = [];
    for (let i = 0; i < 100; i++)
      codes.push((await likeOf(gamma, `script-visitor-${i}`, '10.9.8.7')).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(LIMITS.likeAddress.max);
    expect(codes.filter((c) => c === 429)).toHaveLength(100 - LIMITS.likeAddress.max);
    const gammaNow = (await list(`?category=${encodeURIComponent('Tienda o Comercio')}`)).bots.find(
      (b) => b.id === gamma,
    )!;
    expect(gammaNow.likes_count).toBe(10 + LIMITS.likeAddress.max);
  });
});
