/**
 * Issue 30 §1 in Chromium, on a real Charla (PGlite) listening on a port: files uploaded while the
 * owner has /configure open get their reading state on their cards live ("Listo · 17 páginas", "Sin
 * texto: es un PDF escaneado"), without a reload; "Ver texto" opens the pages read, the owner
 * corrects page 2 and saves, and the new words are searchable; "Volver a leer" warns it replaces the
 * corrections; the scanned PDF's text is typed in by the owner ("Escribe tú el texto"). At 390 and
 * 1280 px; axe clean.
 * Screenshots in /work/notes/shots/knowledge/ (or test-results/screenshots/knowledge/).
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { multipart } from './helpers/multipart.ts';

const SHOTS = existsSync('/work/notes/shots')
  ? '/work/notes/shots/knowledge'
  : new URL('../test-results/screenshots/knowledge/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const SPEC = readFileSync(new URL('./fixtures/knowledge/shared-mime-info-spec.pdf', import.meta.url));
const SCANNED = readFileSync(new URL('./fixtures/knowledge/scanned.pdf', import.meta.url));
const EMAIL = 'archivos-texto@example.com';
const DAY = 86_400_000;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('the text of files in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let owner: { id: string; token: string };
  let botId: string;

  const upload = async (name: string, data: Uint8Array) => {
    const form = await multipart(
      { chatbotId: botId, keyword: name.split('.')[0]!, context: 'Documento' },
      { field: 'file', name, data },
    );
    const res = await (await app.http()).inject({
      method: 'POST',
      url: '/api/chatbot-files',
      headers: { authorization: `Bearer ${owner.token}`, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(res.statusCode, res.body).toBe(201);
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', { llm: null });
    await app.startChannels();
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
    const res = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: {
        business_name: 'Mime Docs',
        idioma: 'Español',
        business_description: 'Documentación de tipos MIME.',
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    botId = (res.json() as { id: string }).id;
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('shows each file’s reading live, and the owner reads and corrects a page', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 800 }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await signInAs(page, base, EMAIL);
    await page.goto(`${base}/configure`);
    await page.getByRole('heading', { name: 'Archivos adjuntos' }).waitFor();

    // Uploaded from elsewhere (another tab, the API): the open screen follows the reading.
    await upload('mime-spec.pdf', SPEC);
    await upload('carta-escaneada.pdf', SCANNED);
    await page.getByText('Listo · 17 páginas').waitFor();
    await page.getByText('Sin texto: es un PDF escaneado').waitFor();
    await page.getByText('Listo · 17 páginas').scrollIntoViewIfNeeded();
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'cards-390.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // "Ver texto": page 2 as read, corrected and saved.
    await page.getByRole('button', { name: 'Ver texto de mime-spec.pdf' }).click();
    const dialog = page.getByRole('dialog', { name: 'Texto de mime-spec.pdf' });
    await dialog.waitFor();
    await dialog.getByLabel('Página', { exact: true }).selectOption({ label: '2 de 17' });
    const box = dialog.getByLabel('Texto de la página 2');
    await expect.poll(() => box.inputValue()).toContain('Unified system');
    await page.screenshot({ path: join(SHOTS, 'dialog-390.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await box.fill('Unified system\nLa pizza margarita cuesta nueve euros y lleva albahaca fresca.');
    await dialog.getByRole('button', { name: 'Guardar página' }).click();
    await page.getByText('Página guardada. El bot ya usa el texto nuevo.').waitFor();
    await dialog.getByText('Corregido por ti').waitFor();
    const found = await app.store.db
      .selectFrom('chatbot_file_passages')
      .select(['page', 'lang_config'])
      .where(sql<boolean>`tsv @@ plainto_tsquery('spanish', 'pizzas margaritas albahaca')`)
      .execute();
    expect(found).toEqual([{ page: 2, lang_config: 'spanish' }]);
    // "Volver a leer" warns first that it replaces the corrections.
    await dialog.getByRole('button', { name: 'Volver a leer' }).click();
    await dialog.getByText('también tus correcciones').waitFor();
    await dialog.getByRole('button', { name: 'Sí, volver a leer' }).waitFor();
    await page.screenshot({ path: join(SHOTS, 'reread-390.png') });

    await page.setViewportSize({ width: 1280, height: 860 });
    await page.screenshot({ path: join(SHOTS, 'dialog-1280.png') });
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await page.getByText('Listo · 17 páginas').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SHOTS, 'cards-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // The scanned PDF: the owner types its text in, and it is ready.
    await page.getByRole('button', { name: 'Escribe tú el texto de carta-escaneada.pdf' }).click();
    const typeIn = page.getByRole('dialog', { name: 'Texto de carta-escaneada.pdf' });
    await typeIn.getByText('Escribe tú lo que dice').waitFor();
    await typeIn.getByLabel('Texto de la página 1').fill('Pizzas\nMargarita 9,50 €');
    await page.screenshot({ path: join(SHOTS, 'type-in-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await typeIn.getByRole('button', { name: 'Guardar página' }).click();
    await page.getByText('Listo · 1 página').waitFor();
    await context.close();
  }, 120_000);
});
