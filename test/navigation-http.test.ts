/**
 * Issue 29 "Finding your way", at the HTTP level (cheaper than a browser):
 * - an unknown address gets the app's page with status 404 (its router shows the "not found"
 *   page), a known screen gets 200, an unknown API path keeps its JSON 404;
 * - `GET /api/auth-config` says whether mails leave the server (`mail: false` without SMTP);
 * - a bot saved for the first time has its web channel on; switching it off stays off on the next save.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type App, withInject } from './helpers/owners.ts';

const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.each(dialectsOf(import.meta.url))('issue 29 navigation over HTTP (%s)', (kind) => {
  let app: App;

  beforeAll(async () => {
    app = await withInject(await createTestApp(kind));
  });
  afterAll(async () => {
    await (app as TestApp | undefined)?.close();
  });

  it.skipIf(!DASHBOARD_BUILT)(
    'answers an unknown page with 404 and the app, a known one with 200',
    async () => {
      const html = { accept: 'text/html,application/xhtml+xml' };
      const unknown = await app.inject({ method: 'GET', url: '/no-existe', headers: html });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.headers['content-type']).toMatch(/text\/html/);
      expect(unknown.body).toMatch(/<div id="root">/);
      expect((await app.inject({ method: 'GET', url: '/en/nada/aqui?x=1', headers: html })).statusCode).toBe(
        404,
      );
      const known = await app.inject({ method: 'GET', url: '/main', headers: html });
      expect(known.statusCode).toBe(200);
      const api = await app.inject({ method: 'GET', url: '/api/no-existe', headers: html });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toHaveProperty('error');
    },
  );

  it('says the server sends no mail without SMTP, and saves a new bot with its web channel on', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/auth-config' })).json()).toEqual({
      google: false,
      mail: false,
    });
    const owner = await app.owner(`web-on-${kind}@example.com`);
    const auth = { authorization: `Bearer ${owner.token}` };
    const saved = await app.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { business_name: 'Casa Lola', business_description: 'Arroces en Valencia.' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const id = (saved.json() as { id: string }).id;
    const webEnabled = async () =>
      (
        await app.store.db
          .selectFrom('chatbots')
          .select('web_enabled')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).web_enabled;
    expect(await webEnabled()).toBe(true);
    // The owner switches it off; saving the bot again keeps it off.
    await app.store.db.updateTable('chatbots').set({ web_enabled: false }).where('id', '=', id).execute();
    const again = await app.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { id, business_name: 'Casa Lola', business_description: 'Arroces y paellas en Valencia.' },
    });
    expect(again.statusCode, again.body).toBe(200);
    expect(await webEnabled()).toBe(false);
  });
});
