/**
 * The web channel's server side (issue 6), over real HTTP routes on each store:
 * - `/api/web/:key/config` and `/message` for any website: CORS for any origin, the greeting and
 *   texts in the bot's language, the PDF for "¿Tenéis la carta?", the spec's text for an unknown key,
 *   a 403 in the bot's language when the owner switched the service off or has no days left, and 429
 *   past the per-visitor rate limit;
 * - /charla-web's load rules: an owner without a bot gets one named after the e-mail's local part,
 *   with an unguessable key and an IALanding; the service toggle; entering the IALanding renames its
 *   slug after the business;
 * - the public IALanding: the demo landing with its files, "IALanding no encontrada" for unknown and
 *   inactive slugs, and the page's HTML carrying the title and Open Graph tags.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNAVAILABLE_TEXTS } from '../adapters/web/texts.ts';
import { seedDemo } from '../cli/seed.ts';
import { GREETINGS } from '../engine/conversation/texts.ts';
import { LIMITS } from '../engine/rate-limits.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

const DAY = 86_400_000;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.each(dialectsOf(import.meta.url))('the web channel on %s', (kind) => {
  let app: TestApp;
  let http: Awaited<ReturnType<TestApp['http']>>;
  let key: string;
  let botId: string;
  let ownerId: string;

  beforeAll(async () => {
    app = await createTestApp(kind);
    http = await app.http();
    const seeded = await seedDemo(app, () => {});
    botId = seeded.bot.id;
    const bot = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('id', '=', botId)
      .executeTakeFirstOrThrow();
    key = bot.charla_key!;
    ownerId = bot.user_id;
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: ownerId, plan: 'free', expires_at: new Date(Date.now() + 30 * DAY) })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ plan: 'free', expires_at: new Date(Date.now() + 30 * DAY) }),
      )
      .execute();
  });
  afterAll(async () => {
    await app?.close();
  });

  const message = (text: string, visitorId = 'visitante-1', headers: Record<string, string> = {}) =>
    http.inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      headers: { origin: 'https://tienda.example', ...headers },
      payload: { userMessage: text, visitorId },
    });

  it('serves any website: CORS, the config in the bot’s language, and the PDF for the menu', async () => {
    const preflight = await http.inject({
      method: 'OPTIONS',
      url: `/api/web/${key}/message`,
      headers: { origin: 'https://tienda.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');

    const config = await http.inject({ method: 'GET', url: `/api/web/${key}/config` });
    expect(config.headers['access-control-allow-origin']).toBe('*');
    expect(config.json()).toMatchObject({
      business_name: 'El Pato Pepe',
      lang: 'es',
      greeting: GREETINGS.es.replace('{business}', 'El Pato Pepe'),
      available: true,
      unavailableText: null,
      texts: { title: 'Asistente IA', typing: 'Escribiendo...', placeholder: 'Escribe tu mensaje...' },
    });

    const res = await message('¿Tenéis la carta?');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.json().attachment).toMatchObject({ type: 'pdf', name: 'carta-el-pato-pepe.pdf' });

    const unknown = await http.inject({ method: 'GET', url: '/api/web/no-existe/config' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('No se encontró la configuración del bot para este IALanding.');

    // Owner routes stay closed to other sites: no CORS header on them.
    const owner = await http.inject({
      method: 'GET',
      url: '/api/my-chatbot',
      headers: { origin: 'https://tienda.example' },
    });
    expect(owner.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('says so in the bot’s language when the service is off or the owner has no days', async () => {
    const expected = UNAVAILABLE_TEXTS.es.replace('{business}', 'El Pato Pepe');
    await app.store.db.updateTable('chatbots').set({ web_enabled: false }).where('id', '=', botId).execute();
    const off = await message('hola', 'visitante-off');
    expect(off.statusCode).toBe(403);
    expect(off.json().error).toBe(expected);
    expect((await http.inject({ method: 'GET', url: `/api/web/${key}/config` })).json()).toMatchObject({
      available: false,
      unavailableText: expected,
    });
    await app.store.db.updateTable('chatbots').set({ web_enabled: true }).where('id', '=', botId).execute();

    await app.store.db
      .updateTable('user_profiles')
      .set({ expires_at: new Date(Date.now() - DAY) })
      .where('user_id', '=', ownerId)
      .execute();
    expect((await message('hola', 'visitante-off')).statusCode).toBe(403);
    await app.store.db
      .updateTable('user_profiles')
      .set({ expires_at: new Date(Date.now() + 30 * DAY) })
      .where('user_id', '=', ownerId)
      .execute();
    expect((await message('hola', 'visitante-off')).statusCode).toBe(200);
  });

  it('limits one visitor to its messages a minute without slowing the others', async () => {
    const statuses: number[] = [];
    for (let i = 0; i <= LIMITS.turnVisitor.max; i++)
      statuses.push((await message(`hola ${i}`, 'visitante-rapido')).statusCode);
    expect(statuses.slice(0, LIMITS.turnVisitor.max).every((s) => s === 200)).toBe(true);
    const limited = await message('otra vez', 'visitante-rapido');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toBe(
      'Demasiados mensajes seguidos. Espera un momento y vuelve a intentarlo.',
    );
    expect((await message('hola', 'visitante-tranquilo')).statusCode).toBe(200);
    // A new visitor id per message does not escape: one address gets at most a few visitors' worth.
    const rotating: number[] = [];
    for (let i = 0; i < LIMITS.turnAddress.max + 1; i++)
      rotating.push((await message('hola', `rota-${i}`)).statusCode);
    expect(rotating).toContain(429);
    expect(rotating.filter((s) => s === 200).length).toBeLessThan(LIMITS.turnAddress.max);
  });

  it('applies the web channel load rules, toggles the service and enters the IALanding', async () => {
    const owner = await app.owner('nueva.tienda@example.com');
    const auth = { authorization: `Bearer ${owner.token}` };
    const loaded = await http.inject({ method: 'GET', url: '/api/charla-web', headers: auth });
    expect(loaded.statusCode, loaded.body).toBe(200);
    const web = loaded.json();
    expect(web.chatbot).toMatchObject({ business_name: 'nueva.tienda', web_enabled: false });
    expect(web.chatbot.charla_key).toMatch(/^[\w-]{32}$/);
    expect(web.ialanding).toEqual({ slug: 'ialanding-nueva-tienda', is_active: true });
    // A second load creates nothing new.
    expect((await http.inject({ method: 'GET', url: '/api/charla-web', headers: auth })).json()).toEqual(web);

    const on = await http.inject({
      method: 'POST',
      url: '/api/charla-web/toggle',
      headers: auth,
      payload: { chatbotId: web.chatbot.id, enabled: true },
    });
    expect(on.json()).toEqual({ web_enabled: true });

    const missing = await http.inject({
      method: 'POST',
      url: '/api/charla-web/ialanding',
      headers: auth,
      payload: {},
    });
    expect(missing.json().error).toBe('Error: No se encontró la configuración del chatbot.');
    await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: {
        id: web.chatbot.id,
        business_name: 'Café Ñandú',
        business_description: 'Café de especialidad.',
      },
    });
    const entered = await http.inject({
      method: 'POST',
      url: '/api/charla-web/ialanding',
      headers: auth,
      payload: { chatbotId: web.chatbot.id, key: web.chatbot.charla_key },
    });
    expect(entered.json()).toEqual({ slug: 'ialanding-cafe-nandu' });
    const landing = await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-cafe-nandu' });
    expect(landing.json()).toMatchObject({
      business_name: 'Café Ñandú',
      charla_key: web.chatbot.charla_key,
      files: [],
    });
  });

  it('serves the demo IALanding, refuses unknown and inactive ones, and previews in the HTML', async () => {
    const landing = await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-el-pato-pepe' });
    expect(landing.statusCode, landing.body).toBe(200);
    expect(landing.json()).toMatchObject({ business_name: 'El Pato Pepe', charla_key: key, available: true });
    expect(
      landing
        .json()
        .files.map((f: { file_type: string }) => f.file_type)
        .sort(),
    ).toEqual(['audio', 'image', 'pdf']);

    const unknown = await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-nadie' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('IALanding no encontrada');
    await app.store.db
      .updateTable('ialandings')
      .set({ is_active: false })
      .where('chatbot_id', '=', botId)
      .execute();
    expect(
      (await http.inject({ method: 'GET', url: '/api/ialanding/ialanding-el-pato-pepe' })).json().error,
    ).toBe('IALanding no encontrada');
    await app.store.db
      .updateTable('ialandings')
      .set({ is_active: true })
      .where('chatbot_id', '=', botId)
      .execute();

    if (DASHBOARD_BUILT) {
      const page = await http.inject({
        method: 'GET',
        url: '/ialanding/ialanding-el-pato-pepe',
        headers: { accept: 'text/html' },
      });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>El Pato Pepe · Asistente IA</title>');
      expect(page.body).toContain('<meta property="og:title" content="El Pato Pepe">');
      // The public description (issue 10 §7): whole sentences of the business description, or cut
      // at a word with an ellipsis.
      expect(page.body).toMatch(
        /<meta property="og:description" content="Restaurante familiar [^"]*(\.|\p{L}…)">/u,
      );
      expect(page.body).toMatch(/<meta property="og:image" content="[^"]+\.jpg">/);
    }
  });
});
