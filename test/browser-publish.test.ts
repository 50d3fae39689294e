/**
 * Issue 29 §"Setting up the bot" in Chromium, on a real Charla (PGlite) with no LLM, at 1280 and
 * 390 px: on /charla-web the "Publicar en Facebots" card says the bot is private, what Facebots will
 * show (name, description, category, IALanding link) and what is missing (the web service); once the
 * owner switches the service back on and publishes, /facebots lists the bot with its new category, and
 * the category filter offers the new list. The IALanding and the widget of the bot say nothing of
 * "Respuestas sin IA", while the owner's try-out chat does. axe finds nothing serious; screenshots
 * go to /work/notes/shots/publish/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATEGORIES, CATEGORY_LABELS } from '../engine/schemas.ts';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, openLanding, signInAs } from './helpers/chromium.ts';

const SHOTS = '/work/notes/shots/publish/';
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const EMAIL = 'lola@example.com';
const BUSINESS = 'Casa Lola';
const BANNER = 'Respuestas sin IA';

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('publishing in Facebots in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let base: string;
  let key: string;
  let slug: string;
  let botId: string;
  let shop: Server;
  let shopOrigin: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const build = (await import(new URL('../scripts/widget.mjs', import.meta.url).href)) as {
      ensureWidget: () => Promise<boolean>;
    };
    await build.ensureWidget();
    app = await createTestApp('pglite', { llm: null });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const owner = await app.owner(EMAIL);
    const expires = new Date(Date.now() + 30 * 86_400_000);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    const inject = async (url: string, payload: Record<string, unknown>) =>
      http.inject({ method: 'POST', url, headers: { authorization: `Bearer ${owner.token}` }, payload });
    const saved = await inject('/api/save-chatbot', {
      business_name: BUSINESS,
      business_description: 'Casa Lola es un restaurante de arroces en Valencia. Abrimos de 13:00 a 16:00.',
      category: 'Restaurante y Comida',
      idioma: 'Español',
    });
    botId = (saved.json() as { id: string }).id;
    key = ((await inject('/api/charla-web/key', { chatbotId: botId })).json() as { charla_key: string })
      .charla_key;
    // The business's own website, another origin ("localhost" on another port) carrying the snippet.
    shop = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="es"><head><title>${BUSINESS}</title></head><body><main><h1>${BUSINESS}</h1></main>${embedSnippet(base, key)}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopOrigin = `http://localhost:${(shop.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (shop ? shop.close(resolve) : resolve(null)));
    await app?.close();
  });

  const newPage = async (width: number) => {
    const context = await browser.newContext({ viewport: { width, height: 860 }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };
  const noHorizontalScroll = async (page: Page) =>
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);

  it.each([1280, 390])(
    'at %i px the owner publishes from /charla-web; Facebots lists it; operator text stays in the dashboard',
    async (width) => {
      const page = await newPage(width);
      await signInAs(page, base, EMAIL);
      await page.goto(`${base}/charla-web`);
      const card = page.getByTestId('publish-card');
      await card
        .getByText(width === 1280 ? 'Al publicarlo, Facebots muestra:' : 'Facebots muestra:')
        .waitFor();
      if (width === 1280) {
        // Private; with the web service off, why it cannot be published yet.
        expect(await card.getByTestId('publish-status').textContent()).toContain('Privado');
        await page.getByTestId('channel-info').getByRole('button', { name: 'Desactivar' }).click();
        await card.getByText('Activa el servicio web antes de publicar el bot en Facebots.').waitFor();
        expect(await card.getByRole('button', { name: 'Publicar en Facebots' }).isDisabled()).toBe(true);
        await page.screenshot({ path: join(SHOTS, 'private-1280.png'), fullPage: true });
        await page.getByTestId('channel-info').getByRole('button', { name: 'Activar' }).click();
        await card.getByRole('button', { name: 'Publicar en Facebots' }).click();
        await card.getByRole('button', { name: 'Dejar de publicar' }).waitFor();
      }
      // What the listing shows, said on the card.
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('Publicado');
      expect(text).toContain(BUSINESS);
      expect(text).toContain('restaurante de arroces');
      expect(text).toContain('🍽️ Restaurante y comida');
      slug = (
        await app.store.db
          .selectFrom('ialandings')
          .select('slug')
          .where('chatbot_id', '=', botId)
          .executeTakeFirstOrThrow()
      ).slug;
      expect(text).toContain(`/ialanding/${slug}`);
      await card.scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SHOTS, `published-${width}.png`), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await noHorizontalScroll(page);

      // The owner's try-out chat says the replies are plain (operator text, owner only).
      if (width === 1280) {
        await page.getByRole('button', { name: 'Probar el bot web' }).click();
        await page.getByTestId('web-chat').getByTestId('offline-banner').getByText(BANNER).waitFor();
      }

      // The directory: listed with its category; the filter offers the new list.
      await page.goto(`${base}/facebots`);
      const listing = page.locator('article, li').filter({ hasText: BUSINESS }).first();
      await listing.getByText('🍽️ Restaurante y comida').waitFor();
      const options = await page.locator('select[name="category"] option').allTextContents();
      expect(options.slice(1)).toHaveLength(CATEGORIES.length);
      for (const c of CATEGORIES) {
        expect(options.some((o) => o.startsWith(CATEGORY_LABELS[c].split(' ')[0]!))).toBe(true);
      }
      await page.screenshot({ path: join(SHOTS, `facebots-${width}.png`), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await noHorizontalScroll(page);

      // The IALanding: no "Respuestas sin IA" for its visitors.
      await openLanding(page, `${base}/ialanding/${slug}`);
      expect(await page.getByTestId('offline-banner').count()).toBe(0);
      expect(await page.locator('body').innerText()).not.toContain(BANNER);
      await page.screenshot({ path: join(SHOTS, `ialanding-${width}.png`), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    },
    120_000,
  );

  it('the widget on the business’s own site shows no operator text either', async () => {
    const page = await newPage(1280);
    await page.goto(`${shopOrigin}/`);
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    const dialog = page.getByRole('dialog', { name: BUSINESS });
    await dialog.getByText(`¡Hola! Soy el asistente de ${BUSINESS}. ¿En qué puedo ayudarte?`).waitFor();
    expect(await dialog.textContent()).not.toContain(BANNER);
    expect(await dialog.textContent()).not.toMatch(/CHARLA_|OPENAI_|ChatGPT/);
    await page.screenshot({ path: join(SHOTS, 'widget-1280.png') });
    await page.context().close();
  }, 120_000);
});
