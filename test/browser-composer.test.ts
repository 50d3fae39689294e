/**
 * Long messages in the chats, in Chromium against a real Charla (issue 10: one 8,500-character
 * message got the failure text, and so did every message after it, since the long text went back as
 * history):
 * - the owner's test chat on /main stops the input at the server's 8000 characters (a longer paste
 *   is cut), with a counter "8000/8000 caracteres" and the note that extra text is not added; the
 *   capped message gets a normal reply and so do the messages after it;
 * - an unbroken 300-character word wraps inside its bubble: nothing sticks out, no sideways scroll;
 * - the IALanding's chat bar has the same cap and counter.
 * (The widget's cap and counter are in browser-widget.test.ts.) Screenshots go to
 * test-results/screenshots/composer-*.png.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../cli/seed.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { CHROMIUM_PATH, launchChromium, openLanding, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DAY = 86_400_000;
const FAILED = 'No pudimos responder en este momento. Por favor, intenta de nuevo más tarde.';

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library); a promise is awaited. */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('long messages in the chats', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite');
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('the test chat caps a message at 8000 characters with a counter, keeps working, and wraps a long word', async () => {
    const owner = await app.owner('largo@example.com');
    const saved = await (await app.http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Librería Larga',
        business_description: 'Libros de segunda mano en Cádiz.',
        idioma: 'Español',
      },
    });
    expect(saved.statusCode).toBe(200);
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await signInAs(page, base, 'largo@example.com');

    await page.getByRole('button', { name: 'Probar el chatbot' }).click();
    const chat = page.getByRole('region', { name: 'Chat de Librería Larga' });
    await chat.getByText('¡Hola! Soy el asistente de Librería Larga. ¿En qué puedo ayudarte?').waitFor();
    const box = chat.getByLabel('Escribe tu mensaje...');
    const counter = chat.getByTestId('message-counter');
    const log = chat.locator('[aria-live="polite"]');
    const bubbles = log.locator('p');
    /** Sends what the box holds and waits for the reply: the box is free and empty again. */
    const sendAndWait = async () => {
      const before = await bubbles.count();
      await box.press('Enter');
      await expect.poll(() => bubbles.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(before + 2);
      await expect.poll(() => box.isDisabled()).toBe(false);
      expect(await box.inputValue()).toBe('');
      return (await bubbles.last().textContent()) ?? '';
    };

    // No counter for a short text; from 6400 characters on it shows.
    await box.fill('hola');
    expect(await counter.count()).toBe(0);
    await box.fill('a'.repeat(7000));
    expect(await counter.textContent()).toBe('7000/8000 caracteres');
    // A pasted 8,500-character text is cut at 8000; the counter says so, in red.
    await box.fill('');
    await box.focus();
    const long = 'Ocho mil quinientos caracteres de prueba. '.repeat(210).slice(0, 8500);
    await page.keyboard.insertText(long);
    expect(await box.inputValue()).toBe(long.slice(0, 8000));
    expect(await counter.textContent()).toBe(
      '8000/8000 caracteresHas llegado al máximo: el texto de más no se añade.',
    );
    expect(await counter.getByRole('status').isVisible()).toBe(true);
    // Tailwind's red-700.
    expect(
      await inPage(page, `getComputedStyle(document.querySelector('[data-testid="message-counter"]')).color`),
    ).toBe('oklch(0.505 0.213 27.518)');
    await page.screenshot({ path: join(SHOTS, 'composer-test-chat-limit.png') });

    // The capped message gets a normal reply, and so do the messages after it (the long one goes
    // back as history).
    expect(await sendAndWait()).not.toBe(FAILED);
    expect(await counter.count()).toBe(0);
    await box.fill('¿Abrís los sábados?');
    expect(await sendAndWait()).not.toBe(FAILED);
    await box.fill('¿Tenéis libros de viajes?');
    expect(await sendAndWait()).not.toBe(FAILED);
    expect(await chat.getByText(FAILED).count()).toBe(0);

    // An unbroken 300-character word wraps inside its bubble.
    const word = 'Supercalifragilístico'.repeat(15).slice(0, 300);
    expect(word).toHaveLength(300);
    await box.fill(word);
    await sendAndWait();
    const fit = await inPage<{
      bubble: { left: number; right: number };
      list: { left: number; right: number };
      scroll: number;
      client: number;
    }>(
      page,
      `(() => {
        const list = document.querySelector('section[aria-label="Chat de Librería Larga"] [aria-live="polite"]');
        const p = [...list.querySelectorAll('p')].find((e) => e.textContent === ${JSON.stringify(word)});
        const b = p.parentElement.getBoundingClientRect();
        const l = list.getBoundingClientRect();
        return { bubble: { left: b.left, right: b.right }, list: { left: l.left, right: l.right }, scroll: list.scrollWidth, client: list.clientWidth };
      })()`,
    );
    expect(fit.bubble.left).toBeGreaterThanOrEqual(fit.list.left);
    expect(fit.bubble.right).toBeLessThanOrEqual(fit.list.right);
    expect(fit.scroll).toBe(fit.client);
    await chat.getByText(word).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'composer-test-chat-wrap.png') });
    await context.close();
  });

  it("the IALanding's chat bar caps a message at 8000 characters with a counter", async () => {
    const demo = await seedDemo(app);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: demo.ownerId, plan: 'free', expires_at: new Date(Date.now() + 30 * DAY) })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: new Date(Date.now() + 30 * DAY) }))
      .execute();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    await openLanding(page, `${base}/ialanding/ialanding-el-pato-pepe`);
    const bar = page.getByTestId('ialanding-chatbar');
    const box = bar.getByRole('textbox');
    await box.waitFor();
    await expect.poll(() => box.isDisabled()).toBe(false);
    const counter = bar.getByTestId('message-counter');
    expect(await counter.count()).toBe(0);
    await box.focus();
    await page.keyboard.insertText('x'.repeat(8500));
    expect((await box.inputValue()).length).toBe(8000);
    expect(await counter.textContent()).toBe(
      '8000/8000 caracteresHas llegado al máximo: el texto de más no se añade.',
    );
    await page.screenshot({ path: join(SHOTS, 'composer-ialanding-limit.png') });
    await box.fill('');
    expect(await counter.count()).toBe(0);
    await context.close();
  });
});
