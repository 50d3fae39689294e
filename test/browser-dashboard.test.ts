/**
 * The owner dashboard in Chromium: /main's status bar, greeting, cards and floating button, and
 * /configure: the spec's "Faltan datos" toast, a save with the spec defaults, the success toast, and
 * the return to /main 500 ms later with the business name in the greeting. Screenshots at 1280 and
 * 375 px go to test-results/screenshots/.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('owner dashboard in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;

  const shoot = async (page: Page, name: string) => {
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  const signIn = async (page: Page, email: string) => {
    await page.goto(`${base}/login`);
    await page.getByLabel('Correo electrónico').fill(email);
    await page.getByLabel('Contraseña').fill('contraseña-segura');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${base}/main`);
  };

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

  it('configures a bot from /main and comes back greeted by the business name', async () => {
    await app.owner('dueno@example.com');
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, 'dueno@example.com');
    await page.getByRole('heading', { name: '¡Hola, dueno!' }).waitFor();
    expect(await page.getByTestId('telegram-status').textContent()).toContain('Telegram no conectado');
    expect(await page.getByText('Próximamente').count()).toBe(3);
    await shoot(page, 'main-dashboard');
    expect(await seriousViolations(page)).toEqual([]);

    await page
      .getByRole('link', { name: /Configurar canal/ })
      .first()
      .click();
    await page.waitForURL(`${base}/configure`);
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Indica el nombre de la empresa y la descripción del bot.').waitFor();
    await shoot(page, 'configure');

    await page.getByLabel('Nombre del negocio').fill('La Huerta de Ana');
    await page
      .getByLabel('Descripción del negocio (comportamiento del bot)')
      .fill('Frutería ecológica en Sevilla, abierta de lunes a sábado.');
    await page.getByLabel('Estilo de comunicación').selectOption('formal');
    await page.getByLabel('Categoría').selectOption('Tienda o Comercio');
    await page.getByLabel('Idioma preferido del bot').selectOption('Español');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('El chatbot ha sido configurado correctamente.').waitFor();
    await page.waitForURL(`${base}/main`);
    await page.getByRole('heading', { name: '¡Hola, La Huerta de Ana!' }).waitFor();

    const bot = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('business_name', '=', 'La Huerta de Ana')
      .executeTakeFirstOrThrow();
    expect(bot).toMatchObject({
      chatbot_style: 'formal',
      category: 'Tienda o Comercio',
      idioma: 'Español',
      is_public: true,
    });

    // The test chat: the greeting in the bot's language, a streamed reply with the PDF, the diagnostics.
    const owner = await app.owner('dueno@example.com');
    const { multipart } = await import('./helpers/multipart.ts');
    const pdf = readFileSync(new URL('../assets/demo/carta-el-pato-pepe.pdf', import.meta.url));
    const form = await multipart(
      { chatbotId: bot.id, keyword: 'precios,catalogo', context: 'Lista de precios de la fruta.' },
      { field: 'file', name: 'precios.pdf', data: pdf },
    );
    const upload = await (await app.http()).inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(upload.statusCode).toBe(201);
    await page.goto(`${base}/main`);
    await page.getByRole('button', { name: 'Probar el chatbot' }).click();
    const chat = page.getByRole('region', { name: 'Chat de La Huerta de Ana' });
    await chat.getByText('¡Hola! Soy el asistente de La Huerta de Ana. ¿En qué puedo ayudarte?').waitFor();
    await chat.getByLabel('Ver Empática').check();
    const box = chat.getByLabel('Escribe tu mensaje...');
    await box.fill('   ');
    await box.press('Enter');
    expect(await chat.getByText('Tú').count()).toBe(0);
    await box.fill('¿Me pasas los precios?');
    await box.press('Enter');
    await chat.getByRole('link', { name: /precios\.pdf/ }).waitFor();
    await chat.getByTestId('diagnostics').getByText('Archivos enviados: precios.pdf').waitFor();
    await shoot(page, 'test-chat');
    expect(await seriousViolations(page)).toEqual([]);

    // Attached files: upload a real PDF from the file chooser, the edit modal opens, keywords are cleaned.
    await page.goto(`${base}/configure`);
    await page.getByRole('heading', { name: 'Archivos adjuntos' }).waitFor();
    await page
      .getByLabel('Añadir archivo')
      .setInputFiles({ name: 'Carta de temporada.pdf', mimeType: 'application/pdf', buffer: pdf });
    const modal = page.getByRole('dialog');
    await modal.waitFor();
    const saveFile = modal.getByRole('button', { name: 'Guardar' });
    expect(await saveFile.isDisabled()).toBe(true);
    await modal.getByLabel('Palabra clave').fill('"Temporada", fruta');
    expect(await modal.getByLabel('Palabra clave').inputValue()).toBe('Temporada,fruta');
    expect(await saveFile.isDisabled()).toBe(true);
    await modal.getByLabel('Descripción').fill('La fruta de temporada de este mes.');
    await saveFile.click();
    await modal.waitFor({ state: 'detached' });
    await page.getByRole('cell', { name: 'temporada,fruta' }).waitFor();
    // A file left without keywords is flagged, with the count.
    await page.getByLabel('Añadir archivo').setInputFiles({
      name: 'foto.jpg',
      mimeType: 'image/jpeg',
      buffer: readFileSync(new URL('../assets/demo/local-el-pato-pepe.jpg', import.meta.url)),
    });
    await page.getByRole('dialog').getByRole('button', { name: 'Cancelar' }).click();
    await page.getByText('Archivos sin palabra clave: 1.', { exact: false }).waitFor();
    // A format the spec does not allow is refused before uploading.
    await page
      .getByLabel('Añadir archivo')
      .setInputFiles({ name: 'virus.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
    await page.getByText('El formato del archivo virus.exe no está permitido.').waitFor();
    await shoot(page, 'configure-files');
    expect(await seriousViolations(page)).toEqual([]);
    // A second tab sees an upload, an edit and a delete live, without reloading.
    const second = await context.newPage();
    second.setDefaultTimeout(8000);
    await second.goto(`${base}/configure`);
    await second.getByRole('listitem').filter({ hasText: 'foto.jpg' }).waitFor();
    await page.getByLabel('Añadir archivo').setInputFiles({
      name: 'saludo.ogg',
      mimeType: 'audio/ogg',
      buffer: readFileSync(new URL('../assets/demo/saludo-el-pato-pepe.ogg', import.meta.url)),
    });
    await page.getByRole('dialog').getByLabel('Palabra clave').fill('hola');
    await page.getByRole('dialog').getByLabel('Descripción').fill('Un saludo.');
    await page.getByRole('dialog').getByRole('button', { name: 'Guardar' }).click();
    await second.getByRole('cell', { name: 'hola' }).waitFor();
    // Delete after confirming.
    page.once('dialog', (d) => void d.accept());
    await page
      .getByRole('listitem')
      .filter({ hasText: 'foto.jpg' })
      .getByRole('button', { name: 'Eliminar' })
      .click();
    await page.getByRole('listitem').filter({ hasText: 'foto.jpg' }).waitFor({ state: 'detached' });
    await second.getByRole('listitem').filter({ hasText: 'foto.jpg' }).waitFor({ state: 'detached' });
    await second.close();

    // Reloading /configure shows the saved values.
    await page.goto(`${base}/configure`);
    await page.waitForFunction(
      `document.querySelector('input[name=business_name]')?.value === 'La Huerta de Ana'`,
    );
    expect(await page.getByLabel('Estilo de comunicación').inputValue()).toBe('formal');
    await context.close();
  }, 120_000);
});
