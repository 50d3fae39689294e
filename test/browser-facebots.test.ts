/**
 * Issue 16 §4 in Chromium: /facebots on a real Charla (PGlite) with the demo seeded (El Pato Pepe,
 * public with its IALanding) and a second public bot on Telegram. The directory lists both as
 * cards, sorts change the order, the category filter can empty it ("No hay bots activos en este
 * momento."), a like moves the count at once and stays liked after a reload, and the page works at
 * 375 px without horizontal scroll. Screenshots; axe finds nothing serious.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../cli/seed.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('Facebots in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let base: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', { llm: null });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const demo = await seedDemo(app);
    await app.store.db
      .updateTable('chatbots')
      .set({ responses_count: 1520, likes_count: 7 })
      .where('id', '=', demo.bot.id)
      .execute();
    const owner = await app.owner('tienda@example.com');
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Zapatería Lola',
        business_description: 'Zapatos hechos a mano en Sevilla. Enviamos a toda España.',
        idioma: 'Español',
        category: 'Tienda o Comercio',
      },
    });
    await app.store.db
      .updateTable('chatbots')
      .set({
        telegram_token: 'enc:x',
        telegram_username: 'ZapateriaLolaBot',
        published_at: new Date(),
        responses_count: 30,
        likes_count: 250,
      })
      .where('id', '=', (saved.json() as { id: string }).id)
      .execute();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('lists, sorts, filters and likes at 1280 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${base}/facebots`);
    await page.getByRole('heading', { name: 'Facebots', level: 1 }).waitFor();
    const names = () => page.getByRole('article').getByRole('heading').allInnerTexts();
    await page.getByRole('heading', { name: 'El Pato Pepe' }).waitFor();
    expect(await names()).toEqual(['El Pato Pepe', 'Zapatería Lola']); // populares: by responses
    await page.getByRole('link', { name: 'Relevantes' }).click();
    await page.waitForURL(/sort=relevantes/);
    await expect.poll(names).toEqual(['Zapatería Lola', 'El Pato Pepe']); // by likes
    expect(await page.getByRole('link', { name: 'Relevantes' }).getAttribute('aria-current')).toBe('page');
    const lola = page.getByRole('article').filter({ hasText: 'Zapatería Lola' });
    await lola.getByText('@ZapateriaLolaBot').waitFor();
    expect(await lola.getByRole('link', { name: 'Abrir en Telegram' }).getAttribute('href')).toBe(
      'https://t.me/ZapateriaLolaBot',
    );
    const pato = page.getByRole('article').filter({ hasText: 'El Pato Pepe' });
    expect(await pato.getByRole('link', { name: 'Ver IALanding' }).getAttribute('href')).toBe(
      '/ialanding/ialanding-el-pato-pepe',
    );
    await pato.getByText(/1,5\s?mil respuestas/).waitFor(); // compact numbers
    await pato.getByRole('button', { name: 'Me gusta' }).click();
    await pato.getByRole('button', { name: 'Te gusta' }).waitFor();
    await expect.poll(() => pato.locator('[data-like-count]').innerText()).toBe('8');
    await page.screenshot({ path: join(SHOTS, 'facebots-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // Liked once per browser: after a reload it stays liked, and the server counted it once.
    await page.reload();
    await page
      .getByRole('article')
      .filter({ hasText: 'El Pato Pepe' })
      .getByRole('button', { name: 'Te gusta' })
      .waitFor();
    const stored = await app.store.db
      .selectFrom('chatbots')
      .select('likes_count')
      .where('business_name', '=', 'El Pato Pepe')
      .executeTakeFirstOrThrow();
    expect(stored.likes_count).toBe(8);

    // A category without bots.
    await page.getByLabel('Categoría').selectOption('Grupo de Amigos');
    await page.getByText('No hay bots activos en este momento.').waitFor();
    await context.close();
  });

  it('works at 375 px without horizontal scroll', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${base}/facebots`);
    await page.getByRole('heading', { name: 'El Pato Pepe' }).waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'facebots-375.png'), fullPage: true });
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
