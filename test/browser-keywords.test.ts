/**
 * Issue 29 "Setting up the bot", keywords, in Chromium at 390 and 1280 px on a real Charla (PGlite):
 * the keyword field's label says several keywords go separated by commas; typing "hola" as a
 * keyword warns that ordinary messages would send the file; the files screen's tester "¿Qué archivo
 * enviaría este mensaje?" shows the file a customer's message would send, and that a greeting sends
 * none. axe clean. Screenshots in /work/notes/shots/keywords/ (or test-results/screenshots/keywords/).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addFile } from '../engine/files.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';

const SHOTS = existsSync('/work/notes/shots')
  ? '/work/notes/shots/keywords'
  : new URL('../test-results/screenshots/keywords/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const asset = (name: string) => readFileSync(new URL(`../assets/demo/${name}`, import.meta.url));
const EMAIL = 'palabras-clave@example.com';

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('keywords on the files screen', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', { llm: null });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    const owner = await app.owner(EMAIL);
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Casa Lola',
        idioma: 'Español',
        business_description: 'Restaurante en Valencia. Arroces y tapas, de martes a domingo.',
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const chatbotId = saved.json<{ id: string }>().id;
    for (const f of [
      { name: 'carta-casa-lola.pdf', keyword: 'menu,carta,precios', context: 'La carta con precios.' },
      { name: 'saludo.ogg', keyword: 'audio,bienvenida', context: 'Un audio de bienvenida.' },
    ])
      await addFile(app.store.db, app.storage, {
        ownerId: owner.id,
        chatbotId,
        originalName: f.name,
        data: asset(f.name.endsWith('.pdf') ? 'carta-el-pato-pepe.pdf' : 'saludo-el-pato-pepe.ogg'),
        keyword: f.keyword,
        context: f.context,
      });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it.each([390, 1280])('labels, warns on "hola" and tests a message at %i px', async (width) => {
    const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signInAs(page, base, EMAIL);
    await page.goto(`${base}/configure`);
    await page.getByRole('heading', { name: 'Archivos adjuntos' }).waitFor();

    // The tester: a customer's message shows the file the bot would send; a greeting sends none.
    const tester = page.getByRole('region', { name: '¿Qué archivo enviaría este mensaje?' });
    const message = tester.getByLabel('Mensaje de un cliente');
    const result = tester.getByTestId('keyword-tester-result');
    await message.fill('¿Me pasas la carta?');
    await result.getByText('El bot enviaría: carta-casa-lola.pdf').waitFor();
    await message.fill('hola');
    await result.getByText('Ningún archivo: el bot respondería con texto.').waitFor();
    await message.fill('¿Me pasas la carta?');
    await result.getByText('El bot enviaría: carta-casa-lola.pdf').waitFor();
    // Centred, so a phone's bottom navigation does not cover it in the screenshot.
    await tester.evaluate((el) =>
      (el as unknown as { scrollIntoView(o: object): void }).scrollIntoView({ block: 'center' }),
    );
    await page.screenshot({ path: `${SHOTS}/tester-${width}.png` });
    // One axe run a width keeps the scenario lean: the tester at 1280 px, the open modal at 390 px.
    if (width === 1280) expect(await seriousViolations(page)).toEqual([]);

    // The keyword field: its label says commas; "hola" is warned about, a specific word is not.
    await page
      .getByRole('listitem')
      .filter({ hasText: 'saludo.ogg' })
      .getByRole('button', { name: 'Editar' })
      .click();
    const modal = page.getByRole('dialog');
    const field = modal.getByLabel('Palabra clave (una o varias, separadas por comas)');
    await field.fill('audio, hola');
    await modal
      .getByText(
        '«hola»: un mensaje corriente como «hola» enviaría este archivo en lugar de una respuesta.',
        {
          exact: false,
        },
      )
      .waitFor();
    await page.screenshot({ path: `${SHOTS}/warning-${width}.png` });
    if (width === 390) expect(await seriousViolations(page)).toEqual([]);
    await field.fill('audio, bienvenida');
    await modal.getByTestId('keyword-warning').waitFor({ state: 'detached' });
    await modal.getByRole('button', { name: 'Cancelar' }).click();
    await context.close();
  });
});
