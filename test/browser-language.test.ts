/**
 * Issue 29 "Language", done when "the dashboard in `hi` shows no Spanish or English server text":
 * an owner whose dashboard speaks Hindi opens /main, /configure, /usuarios-conversaciones and
 * /gestion at 390 px and 1280 px; every visible text (the page's innerText, plus the titles,
 * placeholders and aria-labels) has no Latin-script word but the principled exceptions of
 * test/helpers/latin-words.ts (brand names, technical terms, URLs, e-mails, numbers, names). Her
 * bot's WhatsApp connection holds a raw provider error (English) from the adapter: it shows as a
 * translated channel error, never as the provider's words; a refused save answers in Hindi too.
 * Screenshots: test-results/screenshots/language/*-hi-{390,1280}.png (and /work/notes/shots/language
 * when that folder exists).
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { latinWords } from './helpers/latin-words.ts';
import { type App, ownerWithBot, withInject } from './helpers/owners.ts';

const NOTES = '/work/notes/shots/language';
const SHOTS = existsSync('/work/notes/shots')
  ? NOTES
  : new URL('../test-results/screenshots/language/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

/** Every text the page shows or reads out: innerText plus titles, placeholders, alt and aria-labels. */
const VISIBLE_TEXT = `(() => {
  const attrs = [...document.querySelectorAll('[title],[placeholder],[aria-label],img[alt]')]
    .filter((el) => el.getClientRects().length > 0)
    .flatMap((el) => ['title', 'placeholder', 'aria-label', 'alt'].map((a) => el.getAttribute(a) || ''));
  return [document.body.innerText, ...attrs].join('\\n');
})()`;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('the dashboard in Hindi (Chromium)', () => {
  let app: App;
  let base: string;
  let browser: Browser;
  let botId = '';

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await withInject(await createTestApp('pglite'));
    ({ botId } = await ownerWithBot(app, 'priya@example.com', {
      business_name: 'Priya Sweets',
      business_description: 'मिठाई की दुकान। सोमवार से शनिवार 10:00–20:00।',
    }));
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  /** The page's visible Latin-script words that are not allowed, for each width; screenshots. */
  async function check(page: Page, name: string): Promise<Record<string, string[]>> {
    const found: Record<string, string[]> = {};
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
      await page.waitForLoadState('networkidle');
      await page.screenshot({ path: join(SHOTS, `${name}-hi-${width}.png`), fullPage: true });
      const text = (await page.evaluate(VISIBLE_TEXT)) as string;
      // The owner's own data (her e-mail's name) is hers, not a text to translate.
      const words = text
        .split('\n')
        .flatMap((line) =>
          latinWords(line.replace(/(^|\s)priya(?=\s|$)/g, ' ')).map((w) => `${w} ← ${line.trim()}`),
        );
      if (words.length) found[`${name}@${width}`] = words;
    }
    return found;
  }

  it('shows no Spanish or English text on main, configure, conversations and gestion', async () => {
    // The adapter's last error as a linked device left it: the provider's English words.
    await app.store.db
      .insertInto('whatsapp_connections' as never)
      .values({
        chatbot_id: botId,
        backend: 'baileys',
        status: 'linked',
        last_error: 'Connection Failure: 428 Precondition Required',
        last_error_at: new Date(),
      } as never)
      .execute();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-US' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, 'priya@example.com');
    await page.evaluate("localStorage.setItem('app-language', 'hi')");
    await page.reload();
    await page.locator('html[lang="hi"]').waitFor({ state: 'attached' });

    const found: Record<string, string[]> = {};
    Object.assign(found, await check(page, 'main'));
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`${base}/configure`);
    await page.waitForLoadState('networkidle');
    const health = page.getByTestId('whatsapp-health');
    await health.waitFor();
    const healthText = (await health.innerText()).trim();
    expect(healthText).toMatch(/[\u0900-\u097F]/);
    expect(healthText).not.toMatch(/Precondition|Connection Failure/);
    expect(healthText).toContain('428');
    Object.assign(found, await check(page, 'configure'));
    expect(await seriousViolations(page)).toEqual([]);

    // A refusal of the server, asked from the page like the dashboard asks: answered in Hindi.
    const refused = (await page.evaluate(`fetch('/api/save-chatbot', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ business_name: 'x'.repeat(500) }),
    }).then((r) => r.json())`)) as { error: string };
    expect(refused.error).toMatch(/[\u0900-\u097F]/);
    expect(latinWords(refused.error)).toEqual([]);

    await page.goto(`${base}/usuarios-conversaciones`);
    Object.assign(found, await check(page, 'conversations'));
    await page.goto(`${base}/gestion`);
    Object.assign(found, await check(page, 'gestion'));
    await context.close();
    expect(found).toEqual({});
  }, 180_000);
});
