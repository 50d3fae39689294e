/**
 * Issue 16 in Chromium, on `charla serve` run exactly as `npm start` runs it (the esbuild bundle,
 * PGlite, the demo seeded, no LLM): the home page in Spanish at 1280 px and in Hindi at 375 px, the
 * language selector keeping the query and hash, a legal page, a bot's page with its like, the
 * directory, and the site assistant's cycle (button → panel 320 × 384 → minimised bar → button)
 * answering offline from the FAQ. Screenshots in test-results/screenshots; axe finds nothing
 * serious; no page scrolls sideways.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seriousViolations } from './helpers/axe.ts';
import {
  bundleLikeNpmStart,
  type CharlaServer,
  charlaEnv,
  runCharla,
  serveCharla,
} from './helpers/charla-process.ts';
import { CHROMIUM_PATH, launchChromium } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const SLOW_MS = 180_000;

/** True when the page is wider than its viewport (a sideways scroll on a phone). */
const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > window.innerWidth + 1');

describe.skipIf(!(await import('node:fs')).existsSync(CHROMIUM_PATH))('the public site in Chromium', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-site-'));
  const env = charlaEnv({ CHARLA_DATA_DIR: dataDir, CHARLA_OPERATOR_NAME: 'Pato Pepe S.L.' });
  let server: CharlaServer;
  let browser: Browser;
  /** A page in its own browser context (axe needs one). */
  const open = async (options: Parameters<Browser['newContext']>[0]) => {
    const page = await (await browser.newContext(options)).newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    await bundleLikeNpmStart();
    expect(runCharla(['migrate'], env).code).toBe(0);
    expect(runCharla(['seed', '--demo'], env).code).toBe(0);
    server = await serveCharla(env);
    browser = await launchChromium();
  }, SLOW_MS);
  afterAll(async () => {
    await browser?.close();
    server?.child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('shows the Spanish home at 1280 px, and the selector keeps the query and hash', async () => {
    const page = await open({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}/?utm_source=prueba#pricing`);
    await page.getByRole('heading', { level: 1, name: /Tu negocio, atendido por una IA/ }).waitFor();
    // The carousel's four pictures load from the repo's media. The page opened at #pricing, so the
    // lazy slides load once the visitor is back at the top.
    await page.evaluate('window.scrollTo(0, 0)');
    await expect
      .poll(() =>
        page.evaluate<boolean[]>(
          '[...document.querySelectorAll(".slide")].map((i) => i.complete && i.naturalWidth > 0)',
        ),
      )
      .toEqual([true, true, true, true]);
    await page.evaluate('location.hash = "#pricing"');
    await page.getByRole('heading', { name: 'Precios claros, por días' }).waitFor();
    await page.getByText('19,99 €').first().waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'site-home-es-1280.png') });
    // The industry chips filter the sample cards without script.
    await page.getByText('Salud', { exact: true }).click();
    await expect.poll(() => page.locator('.bot:visible').count()).toBe(2);

    await page.locator('.lang summary').click();
    await page.getByRole('link', { name: 'English' }).click();
    await page.waitForURL(/\/en\/\?utm_source=prueba#pricing$/);
    await page.getByRole('heading', { level: 1, name: /Your business, answered by an AI/ }).waitFor();
    await page.close();
  });

  it('shows the Hindi home at 375 px without sideways scroll', async () => {
    const page = await open({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/hi/`);
    await page.getByRole('heading', { level: 1, name: /आपका व्यवसाय/ }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('hi');
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'site-home-hi-375.png') });
    await page.screenshot({ path: join(SHOTS, 'site-home-hi-375-full.png'), fullPage: true });
    await page.close();
  });

  it('shows a legal page with its back link, and a bot’s page whose like counts once', async () => {
    const page = await open({ viewport: { width: 375, height: 812 } });
    await page.goto(`${server.url}/fr/legal/privacy`);
    await page.getByRole('heading', { level: 1, name: 'Politique de confidentialité' }).waitFor();
    await page.getByText('Pato Pepe S.L.', { exact: false }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'site-legal-fr-375.png'), fullPage: true });
    await page.getByRole('link', { name: '← Retour à l’accueil' }).first().click();
    await page.waitForURL(`${server.url}/fr/`);

    await page.goto(`${server.url}/facebots/el-pato-pepe`);
    await page.getByRole('heading', { level: 1, name: 'El Pato Pepe' }).waitFor();
    const count = page.locator('[data-like-count]');
    const before = await count.innerText();
    await page.getByRole('button', { name: '♥ Me gusta' }).click();
    await page.getByRole('button', { name: '♥ Te gusta' }).waitFor();
    await expect.poll(() => count.innerText()).not.toBe(before);
    const after = await count.innerText();
    await page.reload();
    await page.getByRole('button', { name: '♥ Te gusta' }).waitFor();
    expect(await count.innerText()).toBe(after);
    await page.getByRole('button', { name: '♥ Te gusta' }).click(); // a second like is not counted
    await page.reload();
    expect(await count.innerText()).toBe(after);
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'site-bot-375.png'), fullPage: true });

    // The directory, with the demo bot's card (the app takes over the server's HTML).
    await page.goto(`${server.url}/facebots`);
    await page.getByRole('article').filter({ hasText: 'El Pato Pepe' }).waitFor();
    await page.close();
  });

  it('runs the site assistant’s cycle and answers offline from the FAQ', async () => {
    const page = await open({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${server.url}/`);
    await page.getByRole('button', { name: 'Abrir el asistente' }).click();
    const panel = page.getByRole('dialog', { name: 'Asistente Charla' });
    await panel.waitFor();
    const box = await panel.boundingBox();
    expect([box?.width, box?.height]).toEqual([320, 384]);
    const input = panel.getByPlaceholder('Pregunta sobre Charla...');
    const send = panel.getByRole('button', { name: 'Enviar' });
    expect(await send.isDisabled()).toBe(true);
    await input.fill('   ');
    expect(await send.isDisabled()).toBe(true);
    await input.fill('¿Cuánto cuesta?');
    await input.press('Shift+Enter'); // does not send
    expect(await panel.locator('.msg.me').count()).toBe(0);
    await input.press('Enter');
    await panel.locator('.msg.me', { hasText: '¿Cuánto cuesta?' }).waitFor();
    await panel.locator('.msg.bot', { hasText: '0,90 €' }).waitFor();
    expect(await seriousViolations(page), page.url()).toEqual([]);
    await page.screenshot({ path: join(SHOTS, 'site-assistant-open.png') });

    await panel.getByRole('button', { name: 'Minimizar' }).click();
    const bar = page.getByRole('region', { name: 'Asistente Charla' });
    await bar.getByRole('button', { name: 'Asistente Charla' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'site-assistant-minimised.png') });
    await bar.getByRole('button', { name: 'Cerrar' }).click();
    await page.getByRole('button', { name: 'Abrir el asistente' }).click();
    // The conversation is still there when it opens again.
    await page.getByRole('dialog').locator('.msg.me', { hasText: '¿Cuánto cuesta?' }).waitFor();
    await page.close();
  });
});
