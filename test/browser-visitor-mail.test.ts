/**
 * Issue 28 §2 in Chromium: on the restaurant's site, the widget's booking dialogue (no API key)
 * asks the visitor for an optional e-mail with its consent line, and the confirmation mail's link
 * back, opened in another browser (nothing kept), reopens the chat with the same thread.
 * Screenshots at 390 and 1280 px go to test-results/screenshots and /work/notes/shots/visitor-mail.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import type { RenderedMail } from '../engine/auth/mail.ts';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const NOTES_SHOTS = '/work/notes/shots/visitor-mail';
const WIDGET_BUILT =
  existsSync(new URL('../dist/widget/widget.js', import.meta.url)) &&
  existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

/** A screenshot in test-results and, when /work/notes exists, the notes' folder. */
async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, name);
  await page.screenshot({ path });
  if (existsSync('/work/notes')) {
    mkdirSync(NOTES_SHOTS, { recursive: true });
    copyFileSync(path, join(NOTES_SHOTS, name));
  }
}

describe.skipIf(!existsSync(CHROMIUM_PATH) || !WIDGET_BUILT)('visitor mail in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let base: string;
  let site: Server;
  let siteOrigin: string;
  const mails: RenderedMail[] = [];

  beforeAll(async () => {
    app = await createTestApp('pglite', {
      llm: null,
      mailer: { send: async (m) => void mails.push(m) },
      env: { PUBLIC_URL: 'http://charla.test' },
    });
    await app.startChannels();
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    app.setBaseUrl(base);
    const demo = await seedDemo(app);
    await app.owner(DEMO_EMAIL);
    const key = demo.bot.charla_key!;
    site = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>El Pato Pepe</title></head><body><main><h1>El Pato Pepe</h1><p>Reserva tu mesa en el chat.</p></main>${embedSnippet(base, key)}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  const newPage = async (width: number, height: number) => {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };
  const say = async (scope: ReturnType<Page['getByRole']>, text: string, expected: RegExp) => {
    const input = scope.getByRole('textbox', { name: 'Escribe tu mensaje...' });
    await input.fill(text);
    await input.press('Enter');
    await scope.getByText(expected).last().waitFor();
  };

  it('asks for the e-mail in the widget, and the mail’s link back restores the thread', async () => {
    const page = await newPage(390, 844);
    await page.goto(`${siteOrigin}/`);
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'El Pato Pepe' });
    await dialog.waitFor();
    await say(dialog, 'Reservar mesa para 2 el domingo a las 21:00', /¿A nombre de quién hago la reserva\?/);
    await say(dialog, 'Marta Ruiz', /¿Un teléfono de contacto\?/);
    await say(dialog, '+34 611 222 444', /Solo lo usaremos para esta reserva/);
    await shot(page, 'widget-asks-email-390.png');
    await say(dialog, 'marta@example.com', /te enviaremos la confirmación/);
    await shot(page, 'widget-email-saved-390.png');
    await expect
      .poll(() => mails.filter((m) => m.to === 'marta@example.com').length, { timeout: 10_000 })
      .toBe(1);
    const mail = mails.find((m) => m.to === 'marta@example.com')!;
    expect(mail.attachments?.[0]?.filename).toMatch(/\.ics$/);
    const link = /http:\/\/charla\.test(\/visit\?t=\S+)/.exec(mail.text)![1]!;
    await page.context().close();

    // Another browser, nothing kept: the link back opens the chat with the same conversation.
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const other = await newPage(width, height);
      await other.goto(`${base}${link}`);
      const chat = other.getByRole('dialog', { name: 'El Pato Pepe' });
      await chat.waitFor();
      await chat.getByText('Marta Ruiz').waitFor();
      await chat
        .getByText(/Reserva confirmada en El Pato Pepe/)
        .first()
        .waitFor();
      await shot(other, `link-back-${width}.png`);
      await other.context().close();
    }
  });

  it('shows the owner the visitor’s e-mail and that they get the mails, in the viewer', async () => {
    for (const [width, height] of [
      [1280, 800],
      [390, 844],
    ] as const) {
      const page = await newPage(width, height);
      await signInAs(page, base, DEMO_EMAIL);
      await page.goto(`${base}/configure`);
      await page.getByRole('button', { name: 'Ver reservas' }).click();
      const viewer = page.getByRole('dialog', { name: 'Reservas' });
      const marta = viewer.getByRole('listitem').filter({ hasText: 'Marta Ruiz' });
      await marta
        .getByText(/marta@example\.com · 📧 recibe confirmación y recordatorios por correo/)
        .waitFor();
      await shot(page, `viewer-${width}.png`);
      await page.context().close();
    }
  });
});
