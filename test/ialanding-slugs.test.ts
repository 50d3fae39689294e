/**
 * IALanding slugs with accents (issue 10 §8), over real routes on each store:
 * - the rule folds accents and ñ to ASCII before the spec's a-z0-9 rule ("Cerámica Ana" →
 *   `ialanding-ceramica-ana`);
 * - a landing a database already had under the old rule (`ialanding-cer-mica-ana`) is renamed by
 *   the migration's data step, and the old address answers 301 to the new one while the API
 *   finds the landing by either slug;
 * - a renamed landing's old slug stays its own: another business with that name gets `-2`
 *   (issue 24 §8), so links shared before the rename never reach a newcomer.
 */
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ialandingSlug } from '../engine/store/queries/ialandings.ts';
import { refoldLegacySlugs } from '../migrations/202611230100_ialanding_slug_redirects.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

describe('ialandingSlug', () => {
  it.each([
    ['Cerámica Ana', 'ialanding-ceramica-ana'],
    ['Café Ñandú', 'ialanding-cafe-nandu'],
    ['Crêperie Éloïse', 'ialanding-creperie-eloise'],
    ['Bäckerei Straße 7', 'ialanding-backerei-strasse-7'],
    ['El Pato Pepe', 'ialanding-el-pato-pepe'],
    ['Tienda & Co.', 'ialanding-tienda---co-'],
  ])('%s → %s', (name, slug) => {
    expect(ialandingSlug(name)).toBe(slug);
  });
});

describe.each(dialectsOf(import.meta.url))('IALanding slugs on %s', (kind) => {
  let app: TestApp;
  let http: Awaited<ReturnType<TestApp['http']>>;

  /** A new owner with a bot named `name`, its web channel and IALanding; returns the landing's slug. */
  async function landingOf(email: string, name: string) {
    const owner = await app.owner(email);
    const auth = { authorization: `Bearer ${owner.token}` };
    const web = (await http.inject({ method: 'GET', url: '/api/charla-web', headers: auth })).json();
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { id: web.chatbot.id, business_name: name, business_description: 'Taller artesano.' },
    });
    expect(saved.statusCode).toBe(200);
    const entered = await http.inject({
      method: 'POST',
      url: '/api/charla-web/ialanding',
      headers: auth,
      payload: { chatbotId: web.chatbot.id, key: web.chatbot.charla_key },
    });
    expect(entered.statusCode, entered.body).toBe(200);
    return { slug: entered.json<{ slug: string }>().slug, chatbotId: web.chatbot.id as string, auth };
  }

  beforeAll(async () => {
    app = await createTestApp(kind);
    http = await app.http();
  });
  afterAll(async () => {
    await app?.close();
  });

  it('a new landing gets the folded slug', async () => {
    const { slug } = await landingOf('ana@example.com', 'Cerámica Ana');
    expect(slug).toBe('ialanding-ceramica-ana');
    const landing = await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-ceramica-ana' });
    expect(landing.json()).toMatchObject({ slug: 'ialanding-ceramica-ana', business_name: 'Cerámica Ana' });
  });

  it('an old accented slug is renamed by the migration and redirects to the folded one', async () => {
    const { chatbotId } = await landingOf('nandu@example.com', 'Café Ñandú');
    // As a database from before issue 10 has it.
    await app.store.db
      .updateTable('ialandings')
      .set({ slug: 'ialanding-caf---and-' })
      .where('chatbot_id', '=', chatbotId)
      .execute();
    expect(await refoldLegacySlugs(app.store.db as Kysely<unknown>)).toBe(1);
    expect(await refoldLegacySlugs(app.store.db as Kysely<unknown>)).toBe(0);

    const page = await http.inject({
      method: 'GET',
      url: '/ialanding/ialanding-caf---and-?utm=qr',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).toBe(301);
    expect(page.headers.location).toBe('/ialanding/ialanding-cafe-nandu?utm=qr');

    for (const slug of ['ialanding-caf---and-', 'ialanding-cafe-nandu']) {
      const api = await http.inject({ method: 'GET', url: `/api/ialanding/${slug}` });
      expect(api.statusCode, slug).toBe(200);
      expect(api.json()).toMatchObject({ slug: 'ialanding-cafe-nandu', business_name: 'Café Ñandú' });
    }
  });

  it('a renamed business keeps its old address, even when another business takes that name', async () => {
    const sol = await landingOf('sol@example.com', 'Sol');
    expect(sol.slug).toBe('ialanding-sol');
    await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: sol.auth,
      payload: { id: sol.chatbotId, business_name: 'Luna', business_description: 'Taller artesano.' },
    });
    const renamed = await http.inject({
      method: 'POST',
      url: '/api/charla-web/ialanding',
      headers: sol.auth,
      payload: {
        chatbotId: sol.chatbotId,
        key: (await app.store.db
          .selectFrom('chatbots')
          .select('charla_key')
          .where('id', '=', sol.chatbotId)
          .executeTakeFirstOrThrow())!.charla_key,
      },
    });
    expect(renamed.json()).toEqual({ slug: 'ialanding-luna' });
    const old = await http.inject({
      method: 'GET',
      url: '/ialanding/ialanding-sol',
      headers: { accept: 'text/html' },
    });
    expect(old.statusCode).toBe(301);
    expect(old.headers.location).toBe('/ialanding/ialanding-luna');

    const other = await landingOf('otro-sol@example.com', 'Sol');
    expect(other.slug).toBe('ialanding-sol-2');
    const still = await http.inject({
      method: 'GET',
      url: '/ialanding/ialanding-sol',
      headers: { accept: 'text/html' },
    });
    expect(still.statusCode).toBe(301);
    expect(still.headers.location).toBe('/ialanding/ialanding-luna');
    const live = await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-sol-2' });
    expect(live.json()).toMatchObject({ slug: 'ialanding-sol-2', business_name: 'Sol' });
    const unknown = await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-no-existe' });
    expect(unknown.statusCode).toBe(404);
  });
});
