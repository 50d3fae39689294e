/**
 * Issue 12's "Done when" in Chromium, on a real Charla (PGlite) listening on a port, with the demo
 * seeded and no LLM: a follower of El Pato Pepe books a table for 4 in the owner's test chat and on
 * the widget of the restaurant's site (another origin), each gets a code; both show up in the
 * owner's viewer on /configure (live, within its 15 s refresh), where one is marked "Reserva
 * abonada" and one deleted; the wizard walks its two steps (Next disabled until name and phone are
 * required) and saves. Screenshots at 1280 and 375 px; axe finds nothing serious.
 *
 * Issue 27 §6: a booking the follower cancels in the chat stays in the viewer under "Canceladas",
 * "Cancelada por el cliente" with the time in Madrid; the calendar's week (1280 px) and day (390 px,
 * the default on a phone) show the bookings by time, the cancelled one struck through, reachable by
 * keyboard; nothing scrolls sideways at 390 px. Screenshots in /work/notes/shots/reservations/ too.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
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
/** Where the screenshots are kept for the session's notes, when that folder exists. */
const NOTES_SHOTS = '/work/notes/shots/reservations';

/** The browser's `getComputedStyle`, typed here (the tests' TypeScript has no DOM library). */
type Styles = (el: unknown) => { textDecorationLine: string };

/**
 * A screenshot of the open dialog's panel, whole: the viewport grows to its height for the shot
 * (an element taller than the screen inside a fixed overlay is not captured well otherwise), in
 * test-results and, when the folder exists, the notes'.
 */
async function shot(page: Page, name: string): Promise<void> {
  const path = join(SHOTS, name);
  const size = page.viewportSize()!;
  const panel = page.getByRole('dialog').locator(':scope > div').first();
  const height = Math.ceil((await panel.boundingBox())!.height) + 48;
  if (height > size.height) await page.setViewportSize({ width: size.width, height });
  await page.screenshot({ path });
  await page.setViewportSize(size);
  if (existsSync(NOTES_SHOTS)) copyFileSync(path, join(NOTES_SHOTS, name));
}

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

  /** The demo bot's id and its bookings as the owner's API lists them (every state). */
  const bookingsNow = async () => {
    const botId = (await app.store.db.selectFrom('chatbots').select('id').executeTakeFirstOrThrow()).id;
    const res = await (await app.http()).inject({
      method: 'GET',
      url: `/api/reservations/${botId}?period=all&state=all`,
      headers: { authorization: `Bearer ${(await app.owner(DEMO_EMAIL)).token}` },
    });
    return (res.json() as { reservations: Array<{ code: string; date: string; customer_name: string }> })
      .reservations;
  };
  const madridTime = (at: Date) =>
    new Intl.DateTimeFormat('es', { hour: '2-digit', minute: '2-digit', timeZone: 'Europe/Madrid' }).format(
      at,
    );

  it('keeps a booking cancelled in the chat under «Canceladas», by the customer, with the time', async () => {
    const page = await newPage();
    await signInAs(page, base, DEMO_EMAIL);
    await page.getByRole('button', { name: 'Probar el chatbot' }).click();
    const chat = page.getByRole('region', { name: 'Chat de El Pato Pepe' });
    const box = 'Escribe tu mensaje...';
    await say(chat, box, 'Quiero reservar una mesa para 2 el sábado a las 13:00', /¿A nombre de quién/);
    await say(chat, box, 'Marta Ruiz', /¿Un teléfono de contacto\?/);
    await say(chat, box, '611 000 111', /Tu código es [A-Z0-9]{6}/);
    const code = /Tu código es ([A-Z0-9]{6})/.exec((await chat.textContent()) ?? '')![1]!;
    const before = new Date();
    await say(chat, box, `Cancela la reserva ${code}`, new RegExp(`Tu reserva ${code} está cancelada`));
    const after = new Date();

    await page.goto(`${base}/configure`);
    await page.getByRole('button', { name: 'Ver reservas' }).click();
    const viewer = page.getByRole('dialog', { name: 'Reservas' });
    await viewer.getByText('Ana García').waitFor();
    expect(await viewer.getByText('Marta Ruiz').count()).toBe(0); // not among the active ones
    await viewer.getByLabel('Mostrar').selectOption('cancelled');
    const marta = viewer.getByRole('listitem').filter({ hasText: 'Marta Ruiz' });
    await marta.waitFor();
    expect(await viewer.getByText('Ana García').count()).toBe(0);
    await marta.getByText('CANCELADA', { exact: true }).waitFor();
    const note = (await marta.getByText(/^Cancelada por el cliente el /).textContent()) ?? '';
    expect(
      [madridTime(before), madridTime(after)].some((time) => note.endsWith(time)),
      note,
    ).toBe(true);
    await shot(page, 'viewer-cancelled-1280.png');
    expect(await seriousViolations(page)).toEqual([]);

    // The week calendar at 1280 px: Saturday's bookings by time, the cancelled one struck through.
    await viewer.getByRole('tab', { name: 'Calendario' }).click();
    const calendar = viewer.getByRole('region', { name: 'Calendario de reservas' });
    expect(await calendar.getByRole('button', { name: 'Semana' }).getAttribute('aria-pressed')).toBe('true');
    const saturday = (await bookingsNow()).find((r) => r.code === code)!.date;
    await calendar.getByLabel('Ir a la fecha').fill(saturday);
    const day = calendar.locator(`ul[data-date="${saturday}"]`);
    const ana = day.getByRole('button', {
      name: /14:00–15:00, Ana García, 4 personas, CONFIRMADA Y ABONADA/,
    });
    const cancelled = day.getByRole('button', { name: /13:00–14:00, Marta Ruiz, 2 personas, CANCELADA/ });
    await ana.waitFor();
    await cancelled.waitFor();
    expect(
      await cancelled.evaluate(
        (el) =>
          (globalThis as unknown as { getComputedStyle: Styles }).getComputedStyle(el).textDecorationLine,
      ),
    ).toContain('line-through');
    const [anaBox, martaBox] = [await ana.boundingBox(), await cancelled.boundingBox()];
    expect(anaBox!.y).toBeGreaterThan(martaBox!.y + martaBox!.height - 2); // 14:00 under 13:00
    // By keyboard: Enter on a booking shows its details and actions.
    await ana.focus();
    await page.keyboard.press('Enter');
    await calendar.getByText(/600 123 456/).waitFor();
    await calendar.getByRole('checkbox', { name: 'Reserva abonada' }).waitFor();
    await shot(page, 'calendar-week-1280.png');
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('fits 390 px: the filtered list, and the calendar in day view by default, no sideways scroll', async () => {
    const page = await newPage(390, 844);
    await signInAs(page, base, DEMO_EMAIL);
    await page.goto(`${base}/configure`);
    await page.getByRole('button', { name: 'Ver reservas' }).click();
    const viewer = page.getByRole('dialog', { name: 'Reservas' });
    await viewer.getByText('Ana García').waitFor();
    await viewer.getByLabel('Mostrar').selectOption('all');
    await viewer.getByText('Marta Ruiz').waitFor();
    await viewer.getByText(/^Cancelada por el cliente el /).waitFor();
    const width = () => page.evaluate<number>('document.documentElement.scrollWidth');
    expect(await width()).toBeLessThanOrEqual(390);
    await shot(page, 'viewer-all-390.png');
    expect(await seriousViolations(page)).toEqual([]);

    await viewer.getByRole('tab', { name: 'Calendario' }).click();
    const calendar = viewer.getByRole('region', { name: 'Calendario de reservas' });
    expect(await calendar.getByRole('button', { name: 'Día' }).getAttribute('aria-pressed')).toBe('true');
    const saturday = (await bookingsNow()).find((r) => r.customer_name === 'Marta Ruiz')!.date;
    await calendar.getByLabel('Ir a la fecha').fill(saturday);
    await calendar.getByRole('button', { name: /Ana García/ }).waitFor();
    await calendar.getByRole('button', { name: /Marta Ruiz, 2 personas, CANCELADA/ }).waitFor();
    expect(await width()).toBeLessThanOrEqual(390);
    await shot(page, 'calendar-day-390.png');
    expect(await seriousViolations(page)).toEqual([]);
    await calendar.getByRole('button', { name: 'Semana' }).click();
    await calendar
      .locator(`ul[data-date="${saturday}"]`)
      .getByRole('button', { name: /Ana García/ })
      .waitFor();
    expect(await width()).toBeLessThanOrEqual(390);
    await shot(page, 'calendar-week-390.png');
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
