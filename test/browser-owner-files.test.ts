/**
 * Issue 27 §3 in Chromium, on a real Charla (PGlite) listening on a port: in the inbox the owner
 * attaches one of the bot's stored files (the picker lists them) and then uploads a PDF from the
 * device to a web visitor; the visitor's open widget shows the photo inline (decoded) and the PDF as
 * a card whose address answers 200 application/pdf, both as the owner's (a person's bubble); the
 * inbox thread shows them too; a file of another format is refused before any upload, in the
 * dashboard's language; at 390 px the composer with the picker open needs no sideways scroll.
 * Screenshots at 390 and 1280 px in /work/notes/shots/inbox-files/ (or
 * test-results/screenshots/inbox-files/ when that folder is absent).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { multipart } from './helpers/multipart.ts';

const SHOTS = existsSync('/work/notes/shots')
  ? '/work/notes/shots/inbox-files'
  : new URL('../test-results/screenshots/inbox-files/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const MENU = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));
const PHOTO = readFileSync(new URL('../assets/demo/local-el-pato-pepe.jpg', import.meta.url));
const BUSINESS = 'Casa Lola';
const EMAIL = 'archivos-inbox@example.com';
const DAY = 86_400_000;

/** Runs a JavaScript expression in the page (the project's tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;
/** The widget's shadow root, as an expression. */
const ROOT = `document.getElementById('charla-widget').shadowRoot`;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('the owner’s files in Chromium', () => {
  let app: TestApp;
  let site: Server;
  let siteOrigin: string;
  let base: string;
  let browser: Browser;
  let owner: { id: string; token: string };
  let botId: string;

  const call = async (url: string, payload: Record<string, unknown>) => {
    const res = await (await app.http()).inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
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
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    owner = await app.owner(EMAIL);
    const expires = new Date(Date.now() + 30 * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    botId = (
      await call('/api/save-chatbot', {
        business_name: BUSINESS,
        idioma: 'Español',
        business_description: 'Restaurante en Valencia. Arroces y tapas, de martes a domingo.',
      })
    ).id as string;
    const key = (await call('/api/charla-web/key', { chatbotId: botId })).charla_key as string;
    await call('/api/charla-web/toggle', { chatbotId: botId, enabled: true });
    const upload = await multipart(
      { chatbotId: botId, keyword: 'local' },
      { field: 'file', name: 'local.jpg', data: PHOTO },
    );
    const stored = await http.inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': upload.contentType },
      payload: upload.body,
    });
    expect(stored.statusCode, stored.body).toBe(201);
    site = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${BUSINESS}</title></head><body><main><h1>${BUSINESS}</h1></main>${embedSnippet(base, key)}</body></html>`,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (site ? site.close(resolve) : resolve(null)));
    await app?.close();
  });

  it('sends a stored photo and an uploaded PDF from the inbox; the open widget shows both', async () => {
    const visitorContext = await browser.newContext({
      viewport: { width: 390, height: 760 },
      locale: 'es-ES',
    });
    const widget = await visitorContext.newPage();
    widget.setDefaultTimeout(15_000);
    await widget.goto(`${siteOrigin}/`);
    await widget.getByRole('button', { name: 'Abrir el chat' }).click();
    const dialog = widget.getByRole('dialog', { name: BUSINESS });
    await dialog.waitFor();
    const box = dialog.getByRole('textbox', { name: 'Escribe tu mensaje...' });
    await box.fill('¿Me enseñáis cómo es por dentro y la carta?');
    await box.press('Enter');
    // (Not "el local": the photo's keyword would have the bot send it first, and the inbox show it twice.)
    await widget.waitForFunction(`${ROOT}.querySelectorAll('.log .row.bot').length >= 1`);

    const ownerContext = await browser.newContext({ viewport: { width: 390, height: 760 }, locale: 'es-ES' });
    const page = await ownerContext.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, EMAIL);
    await page.goto(`${base}/usuarios-conversaciones`);
    await page.getByRole('button', { name: /Visitante web 1\b/ }).click();
    const log = page.getByRole('log', { name: 'Conversación' });
    await log.getByText('¿Me enseñáis cómo es por dentro y la carta?').waitFor();

    // A stored file from the picker, with a text.
    await page.getByRole('button', { name: '📎 Adjuntar' }).click();
    const picker = page.getByLabel('Archivo del bot');
    await expect.poll(() => picker.locator('option').allTextContents()).toContain('local.jpg');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await page.screenshot({ path: join(SHOTS, 'inbox-picker-390.png') });
    await picker.selectOption({ label: 'local.jpg' });
    await page.getByTestId('reply-file').getByText('local.jpg').waitFor();
    await page.getByLabel('Tu respuesta').fill('Así es el local por dentro.');
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await log.locator('img[alt="local.jpg"]').waitFor();
    await expect.poll(() => page.getByTestId('reply-file').count()).toBe(0);

    // The widget shows the photo, decoded, in a person's bubble.
    await widget.waitForFunction(`${ROOT}.querySelector('.log .row.person img.file-img')`);
    await expect
      .poll(() =>
        inPage<number>(widget, `${ROOT}.querySelector('.log .row.person img.file-img').naturalWidth`),
      )
      .toBeGreaterThan(0);

    // A file of another format is refused before any upload.
    await page.getByRole('button', { name: '📎 Adjuntar' }).click();
    await page.getByLabel('Subir un archivo nuevo').setInputFiles({
      name: 'hoja.xlsx',
      mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      buffer: Buffer.from('PK hoja'),
    });
    await page.getByText('El formato del archivo hoja.xlsx no está permitido').waitFor();

    // A PDF from the device, without text.
    await page.getByLabel('Subir un archivo nuevo').setInputFiles({
      name: 'Carta de otoño.pdf',
      mimeType: 'application/pdf',
      buffer: MENU,
    });
    await page.getByTestId('reply-file').getByText('Carta de otoño.pdf').waitFor();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.getByRole('button', { name: 'Enviar', exact: true }).click();
    await log.getByRole('link', { name: /Carta_de_otono\.pdf/ }).waitFor();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await log.evaluate('(el) => { el.scrollTop = el.scrollHeight; }');
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'inbox-thread-390.png') });
    expect(await seriousViolations(page)).toEqual([]);

    await widget.waitForFunction(`${ROOT}.querySelector('.log .row.person a.file-pdf')`);
    const href = await inPage<string>(widget, `${ROOT}.querySelector('.log .row.person a.file-pdf').href`);
    expect(href).toMatch(/\/files\/.+Carta_de_otono\.pdf$/);
    const res = await fetch(href);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(
      await inPage<string>(widget, `${ROOT}.querySelector('.log .row.person:last-child .by').textContent`),
    ).toBe(`Equipo de ${BUSINESS}`);
    await widget.waitForFunction(
      `(() => { const l = ${ROOT}.querySelector('.log'); l.scrollTop = l.scrollHeight; return true; })()`,
    );
    await widget.screenshot({ path: join(SHOTS, 'widget-files-390.png') });

    await page.setViewportSize({ width: 1280, height: 860 });
    await widget.setViewportSize({ width: 1280, height: 860 });
    await log.getByRole('link', { name: /Carta_de_otono\.pdf/ }).waitFor();
    await page.getByRole('button', { name: '📎 Adjuntar' }).click();
    await page.getByLabel('Archivo del bot').waitFor();
    await page.evaluate('window.scrollTo(0, document.documentElement.scrollHeight)');
    await log.evaluate('(el) => { el.scrollTop = el.scrollHeight; }');
    await page.screenshot({ path: join(SHOTS, 'inbox-thread-1280.png') });
    await widget.screenshot({ path: join(SHOTS, 'widget-files-1280.png') });
    await ownerContext.close();
    await visitorContext.close();
  }, 120_000);
});
