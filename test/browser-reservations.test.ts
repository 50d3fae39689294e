/**
 * Issue 12's "Done when" in Chromium, on a real Charla (PGlite) listening on a port, with the demo
 * seeded and no LLM: a follower of El Pato Pepe books a table for 4 in the owner's test chat and on
 * the widget of the restaurant's site (another origin), each gets a code; both show up in the
 * owner's viewer on /configure (live, within its 15 s refresh), where one is marked "Reserva
 * abonada" and one deleted; the wizard walks its two steps (Next disabled until name and phone are
 * required) and saves. Screenshots at 1280 and 375 px; axe finds nothing serious.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('reservations in Chromium', () => {
  let browser: Browser;
  let app: TestApp;
  let base: string;
  let site: Server;
  let siteOrigin: string;
  let key: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', { llm: null });
    await app.startChannels();
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    app.setBaseUrl(base);
    const demo = await seedDemo(app);
    await app.owner(DEMO_EMAIL);
    key = demo.bot.charla_key!;
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

  const newPage = async (width = 1280, height = 800) => {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };
  /** Sends a message in a chat and waits for a reply containing `expected`. */
  const say = async (scope: ReturnType<Page['getByRole']>, box: string, text: string, expected: RegExp) => {
    const input = scope.getByRole('textbox', { name: box });
    await input.fill(text);
    await input.press('Enter');
    await scope.getByText(expected).last().waitFor();
  };

  it('books a table for 4 in the test chat, with no API key, and gets a code', async () => {
    const page = await newPage();
    await signInAs(page, base, DEMO_EMAIL);
    await page.getByRole('button', { name: 'Probar el chatbot' }).click();
    const chat = page.getByRole('region', { name: 'Chat de El Pato Pepe' });
    const box = 'Escribe tu mensaje...';
    await say(chat, box, 'Hola, quiero reservar una mesa para 4 el sábado', /Huecos libres para el sábado/);
    await say(chat, box, '2', /¿A nombre de quién hago la reserva\?/);
    await say(chat, box, 'Ana García', /¿Un teléfono de contacto\?/);
    await say(chat, box, '600 123 456', /Tu código es [A-Z0-9]{6}/);
    expect(await chat.textContent()).toMatch(
      /Reserva confirmada en El Pato Pepe: sábado, \d+ de \w+, 14:00, 4 personas/,
    );
    await page.screenshot({ path: join(SHOTS, 'reservations-test-chat-1280.png') });
    await page.context().close();
  });

  it('books on the widget of the restaurant’s site', async () => {
    const page = await newPage(390, 844);
    await page.goto(`${siteOrigin}/`);
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    const dialog = page.getByRole('dialog', { name: 'El Pato Pepe' });
    await dialog.waitFor();
    const box = 'Escribe tu mensaje...';
    await say(
      dialog,
      box,
      'Reservar mesa para 4 el domingo a las 21:00',
      /¿A nombre de quién hago la reserva\?/,
    );
    await say(dialog, box, 'Luis Pérez', /¿Un teléfono de contacto\?/);
    await say(dialog, box, '+34 611 222 333', /Tu código es [A-Z0-9]{6}/);
    // A reminder sent to this visitor shows when the window opens again (and every 15 s while open).
    const { user_id: visitor } = await app.store.db
      .selectFrom('conversation_messages')
      .select('user_id')
      .where('channel', '=', 'web')
      .executeTakeFirstOrThrow();
    await app.outbox.send(
      {
        chatbotId: (await app.store.db.selectFrom('chatbots').select('id').executeTakeFirstOrThrow()).id,
        channel: 'web',
        chatId: visitor,
      },
      { text: '⏰ Recordatorio: dentro de 2 horas tienes reserva en El Pato Pepe.' },
    );
    await dialog.getByRole('button', { name: 'Cerrar' }).click();
    await page.getByRole('button', { name: 'Abrir el chat' }).click();
    await dialog.getByText('⏰ Recordatorio: dentro de 2 horas').waitFor();
    await page.screenshot({ path: join(SHOTS, 'reservations-widget-390.png') });
    await page.context().close();
  });

  it('shows both in the viewer, marks one paid, deletes one, and the wizard saves in two steps', async () => {
    const page = await newPage();
    await signInAs(page, base, DEMO_EMAIL);
    await page.goto(`${base}/configure`);
    await page.getByRole('button', { name: 'Ver reservas' }).click();
    const viewer = page.getByRole('dialog', { name: 'Reservas' });
    await viewer.getByText('Ana García').waitFor();
    await viewer.getByText('Luis Pérez').waitFor();
    expect(await viewer.getByText('CONFIRMADA', { exact: true }).count()).toBe(2);
    const ana = viewer.getByRole('listitem').filter({ hasText: 'Ana García' });
    await ana.getByRole('checkbox', { name: 'Reserva abonada' }).click();
    await ana.getByText('CONFIRMADA Y ABONADA').waitFor();
    expect(await ana.getByRole('checkbox', { name: 'Reserva abonada' }).isChecked()).toBe(true);
    await page.screenshot({ path: join(SHOTS, 'reservations-viewer-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // A reservation made elsewhere appears within the viewer's refresh.
    const luis = viewer.getByRole('listitem').filter({ hasText: 'Luis Pérez' });
    page.once('dialog', (d) => void d.accept());
    await luis.getByRole('button', { name: 'Eliminar' }).click();
    await luis.waitFor({ state: 'detached' });
    await viewer.getByRole('button', { name: 'Cerrar' }).click();

    await page.getByRole('button', { name: 'Configurar', exact: true }).click();
    const wizard = page.getByRole('dialog', { name: 'Configurar reservas' });
    await wizard.getByText('Paso 1 de 2').waitFor();
    expect(await wizard.getByLabel('Nombre del calendario').inputValue()).toBe('');
    await wizard.getByText('Si lo dejas vacío: «Reservas de El Pato Pepe»').waitFor();
    const next = wizard.getByRole('button', { name: 'Siguiente' });
    expect(await next.isEnabled()).toBe(true);
    await wizard.getByRole('checkbox', { name: 'Teléfono' }).uncheck();
    expect(await next.isDisabled()).toBe(true);
    await wizard.getByText('Para continuar, pide al menos el nombre y el teléfono.').waitFor();
    await wizard.getByRole('checkbox', { name: 'Teléfono' }).check();
    await wizard.getByRole('checkbox', { name: 'Permitir reservas simultáneas' }).check();
    await wizard.getByLabel('Máximo de reservas a la vez').selectOption('4');
    await page.screenshot({ path: join(SHOTS, 'reservations-wizard-step1-1280.png'), fullPage: true });
    await next.click();
    await wizard.getByText('Paso 2 de 2').waitFor();
    await wizard.getByText('Reservas de El Pato Pepe').waitFor();
    await wizard.getByText('13:00–14:00').first().waitFor();
    await page.screenshot({ path: join(SHOTS, 'reservations-wizard-step2-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await wizard.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Configuración guardada').waitFor();
    const stored = await (await app.http()).inject({
      method: 'GET',
      url: `/api/reservations/${(await app.store.db.selectFrom('chatbots').select('id').executeTakeFirstOrThrow()).id}/config`,
      headers: { authorization: `Bearer ${(await app.owner(DEMO_EMAIL)).token}` },
    });
    expect(stored.json()).toMatchObject({
      saved: true,
      config: { allow_simultaneous: true, max_simultaneous: 4 },
    });
    await page.context().close();
  });

  it('is usable at 375 px: the viewer and the wizard fit the screen', async () => {
    const page = await newPage(375, 812);
    await signInAs(page, base, DEMO_EMAIL);
    await page.goto(`${base}/configure`);
    await page.getByRole('button', { name: 'Ver reservas' }).click();
    const viewer = page.getByRole('dialog', { name: 'Reservas' });
    await viewer.getByText('Ana García').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'reservations-viewer-375.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await viewer.getByRole('button', { name: 'Cerrar' }).click();
    await page.getByRole('button', { name: 'Configurar', exact: true }).click();
    await page.getByRole('dialog', { name: 'Configurar reservas' }).getByText('Paso 1 de 2').waitFor();
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(SHOTS, 'reservations-wizard-375.png') });
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });
});
