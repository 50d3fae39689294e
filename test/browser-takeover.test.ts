/**
 * Takeover as the web visitor sees it (issue 27 §3), in Chromium on a phone (390 px) and a desktop
 * (1280 px): a visitor writes in the widget on a business's site; the owner answers from the
 * dashboard; the open window shows the answer within a second in an amber bubble labelled
 * "Equipo de <business>", and the header says a person answers; what the visitor writes while the
 * bot is paused shows as sent with, once, "Te responderá una persona…", never an empty bubble; a new
 * tab of the same browser restores the thread from the server. Screenshots:
 * test-results/screenshots/takeover-390.png and takeover-1280.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { CHROMIUM_PATH, launchChromium } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const BUSINESS = 'Café Directo';
const DAY = 86_400_000;
const NOTE = 'Te responderá una persona en cuanto pueda.';

/** Runs a JavaScript expression in the page (the project's tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
/** The texts of the window's message bubbles, in order (`''` for an empty one). */
const bubbles = (page: Page) =>
  inPage<string[]>(
    page,
    `[...document.getElementById('charla-widget').shadowRoot.querySelectorAll('.log .msg')].map((m) => m.textContent.trim())`,
  );

describe.skipIf(!existsSync(CHROMIUM_PATH))('takeover in the web widget', () => {
  let app: TestApp;
  let site: Server;
  let siteOrigin: string;
  let browser: Browser;
  let owner: { id: string; token: string };
  let botId: string;

  const inject = async (url: string, payload: Record<string, unknown>) => {
    const res = await (await app.http()).inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };
  const dialog = (page: Page) => page.getByRole('dialog', { name: BUSINESS });
  const open = async (page: Page) => {
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    await dialog(page).waitFor();
    await page.waitForTimeout(450);
  };
  const say = async (page: Page, text: string) => {
    const box = dialog(page).getByRole('textbox', { name: 'Escribe tu mensaje...' });
    await box.fill(text);
    await box.press('Enter');
    await dialog(page).getByText(text, { exact: true }).waitFor();
    await page.waitForFunction(
      `!document.getElementById('charla-widget').shadowRoot.querySelector('.input').disabled`,
    );
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const build = (await import(new URL('../scripts/widget.mjs', import.meta.url).href)) as {
      ensureWidget(): Promise<boolean>;
    };
    await build.ensureWidget();
    app = await createTestApp('pglite', { llm: null });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    const appOrigin = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    owner = await app.owner('takeover-browser@example.com');
    const expires = new Date(Date.now() + 30 * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    botId = (
      await inject('/api/save-chatbot', {
        business_name: BUSINESS,
        idioma: 'Español',
        business_description: 'Cafetería en Valencia. Abrimos de lunes a sábado de 8:00 a 20:00.',
      })
    ).id as string;
    const key = (await inject('/api/charla-web/key', { chatbotId: botId })).charla_key as string;
    await inject('/api/charla-web/toggle', { chatbotId: botId, enabled: true });
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${BUSINESS}</title></head><body><main><h1>${BUSINESS}</h1><p>Café de especialidad.</p></main>${embedSnippet(appOrigin, key)}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(null)));
    await app?.close();
  });

  it('shows the owner as a person, no empty bubble while paused, and the thread in a new tab', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 760 } });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await page.goto(`${siteOrigin}/`);
    await open(page);
    await say(page, '¿Tenéis terraza?');
    const visitor = await inPage<string>(
      page,
      `Object.keys(localStorage).find((k) => k.endsWith(':visitor'))`,
    );
    const userId = await inPage<string>(page, `localStorage.getItem(${JSON.stringify(visitor)})`);

    const sent = Date.now();
    await inject(`/api/conversations/${botId}/reply`, {
      channel: 'web',
      userId,
      text: 'Sí, con ocho mesas al sol.',
    });
    await dialog(page).getByText('Sí, con ocho mesas al sol.').waitFor({ timeout: 3_000 });
    expect(Date.now() - sent).toBeLessThan(2_000);
    await dialog(page).getByText(`Equipo de ${BUSINESS}`, { exact: true }).waitFor();
    await dialog(page).getByText('Te atiende una persona', { exact: true }).waitFor();

    // Paused: the visitor's messages show as sent, the note once, and no empty bubble.
    await say(page, '¿Y se puede ir con perro?');
    await dialog(page).getByText(NOTE).waitFor();
    await say(page, 'Somos cuatro.');
    const shown = await bubbles(page);
    expect(shown).not.toContain('');
    expect(await dialog(page).getByText(NOTE).count()).toBe(1);
    expect(shown.slice(-3)).toEqual([
      `Equipo de ${BUSINESS}Sí, con ocho mesas al sol.`,
      '¿Y se puede ir con perro?',
      'Somos cuatro.',
    ]);
    await page.screenshot({ path: join(SHOTS, 'takeover-390.png') });

    // The same browser, a new tab on a desktop: the thread comes back from the server.
    const again = await context.newPage();
    await again.setViewportSize({ width: 1280, height: 800 });
    await again.goto(`${siteOrigin}/`);
    await open(again);
    await dialog(again).getByText('Sí, con ocho mesas al sol.').waitFor();
    await dialog(again).getByText('Somos cuatro.').waitFor();
    await dialog(again).getByText('Te atiende una persona', { exact: true }).waitFor();
    expect(await bubbles(again)).not.toContain('');
    await again.screenshot({ path: join(SHOTS, 'takeover-1280.png') });
    await context.close();
  }, 40_000);
});
