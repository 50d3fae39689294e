/**
 * Issue 29 §"Setting up the bot" through a running Charla, on PGlite and PostgreSQL:
 * - a new bot is private: not in `/api/facebots` (nor the site's directory) and its IALanding carries
 *   `noindex`, even with the web service on; publishing needs a description and the web service on
 *   (409 in the owner's language otherwise); once published it is listed and indexable; unpublishing
 *   takes it off again;
 * - categories: the new list validates, the spec's renamed names map on input and in the migration;
 *   the migration that introduced publishing publishes exactly the bots the directory listed then.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as publishedBots from '../migrations/202611291310_published_bots.ts';
import * as businessCategories from '../migrations/202611291320_business_categories.ts';
import type { DirectoryAnswer, PublishState } from '../plugins/facebots/api.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

describe.each(dialectsOf(import.meta.url))('publishing in Facebots on %s', (kind) => {
  let app: TestApp;
  let token: string;
  let botId: string;
  let slug: string;

  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, lang = 'es') =>
    (await app.http()).inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'x-app-language': lang },
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    });
  const listed = async (query = '') =>
    ((await call('GET', `/api/facebots${query}`)).json() as DirectoryAnswer).bots.map((b) => b.business_name);
  const landingHtml = async () => (await call('GET', `/ialanding/${slug}`)).body;
  const publish = (published: boolean, lang?: string) =>
    call('POST', `/api/facebots/publish/${botId}`, { published }, lang);

  beforeAll(async () => {
    app = await createTestApp(kind, { llm: null });
    token = (await app.owner('lola@example.com')).token;
    // The web screen's load creates a bot without a description, its key and its IALanding.
    const web = (await call('GET', '/api/charla-web')).json() as {
      chatbot: { id: string };
      ialanding: { slug: string };
    };
    botId = web.chatbot.id;
    slug = web.ialanding.slug;
  });
  afterAll(async () => {
    await app?.close();
  });

  it('keeps a new bot private until published, then lists it; unpublishing takes it off', async () => {
    const state = (await call('GET', `/api/facebots/publish/${botId}`)).json() as PublishState;
    expect(state.published_at).toBeNull();
    expect(state.blockers).toEqual(['needsDescription', 'needsWeb']);

    const noDescription = await publish(true, 'en');
    expect(noDescription.statusCode).toBe(409);
    expect(noDescription.json()).toEqual({
      error: 'Add a description of your business before publishing the bot in Facebots.',
      code: 'needsDescription',
    });

    const saved = await call('POST', '/api/save-chatbot', {
      id: botId,
      business_name: 'Casa Lola',
      business_description: 'Casa Lola es un restaurante de arroces en Valencia. Abrimos de 13:00 a 16:00.',
      category: 'Restaurante y Comida',
      idioma: 'Español',
    });
    expect(saved.statusCode).toBe(200);
    const noWeb = await publish(true);
    expect(noWeb.statusCode).toBe(409);
    expect(noWeb.json()).toEqual({
      error: 'Activa el servicio web antes de publicar el bot en Facebots.',
      code: 'needsWeb',
    });

    // Web on and an IALanding: reachable by its link, yet neither listed nor indexed.
    expect(
      (await call('POST', '/api/charla-web/toggle', { chatbotId: botId, enabled: true })).statusCode,
    ).toBe(200);
    expect(await listed()).not.toContain('Casa Lola');
    expect(await landingHtml()).toContain('<meta name="robots" content="noindex">');

    const published = await publish(true);
    expect(published.statusCode).toBe(200);
    const after = published.json() as PublishState;
    expect(after.published_at).not.toBeNull();
    expect(after.blockers).toEqual([]);
    expect(after.listing).toMatchObject({
      business_name: 'Casa Lola',
      category: 'Restaurante y Comida',
      ialanding_slug: slug,
    });
    expect(after.listing.description).toContain('restaurante de arroces');
    expect(await listed()).toContain('Casa Lola');
    expect(await listed(`?category=${encodeURIComponent('Restaurante y Comida')}`)).toEqual(['Casa Lola']);
    expect(await landingHtml()).not.toContain('noindex');

    expect((await publish(false)).statusCode).toBe(200);
    expect(await listed()).not.toContain('Casa Lola');
    expect(await landingHtml()).toContain('<meta name="robots" content="noindex">');
    // Another owner's bot answers 404.
    const other = await app.owner('otra@example.com');
    const foreign = await (await app.http()).inject({
      method: 'POST',
      url: `/api/facebots/publish/${botId}`,
      headers: { authorization: `Bearer ${other.token}` },
      payload: { published: true },
    });
    expect(foreign.statusCode).toBe(404);
  });

  it('validates the new categories and maps the spec’s renamed ones', async () => {
    const save = (category: string) =>
      call('POST', '/api/save-chatbot', {
        id: botId,
        business_name: 'Casa Lola',
        business_description: 'Casa Lola es un restaurante de arroces en Valencia.',
        category,
      });
    expect((await save('Inventada')).statusCode).toBe(400);
    expect((await save('Divulgador Científico o Educativo')).statusCode).toBe(200);
    const row = () =>
      app.store.db
        .selectFrom('chatbots')
        .select(['category', 'published_at'])
        .where('id', '=', botId)
        .executeTakeFirstOrThrow();
    expect((await row()).category).toBe('Educación');

    // The migration moves stored bots from the spec's names.
    await app.store.db
      .updateTable('chatbots')
      .set({ category: 'Empresa o Profesional' })
      .where('id', '=', botId)
      .execute();
    await businessCategories.up(app.store.db as never);
    expect((await row()).category).toBe('Servicios Profesionales');
    // A directory link with a spec name still filters (to its new name).
    const old = await call('GET', `/api/facebots?category=${encodeURIComponent('Empresa o Profesional')}`);
    expect(old.statusCode).toBe(200);
  });

  it('publishes at migration time exactly the bots the directory listed then', async () => {
    // The bot: public, web on, an active IALanding (listed under the old rules); a second bot
    // with no live channel (not listed then).
    const second = await app.owner('sin-canal@example.com');
    const quiet = await (await app.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${second.token}` },
      payload: { business_name: 'Sin Canal', business_description: 'Un negocio sin canales todavía.' },
    });
    const quietId = (quiet.json() as { id: string }).id;
    await publishedBots.down(app.store.db as never);
    await publishedBots.up(app.store.db as never);
    const published = await app.store.db
      .selectFrom('chatbots')
      .select(['id', sql<boolean>`published_at is not null`.as('published')])
      .where('id', 'in', [botId, quietId])
      .execute();
    expect(Object.fromEntries(published.map((r) => [r.id, Boolean(r.published)]))).toEqual({
      [botId]: true,
      [quietId]: false,
    });
  });
});
