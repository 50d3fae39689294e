/**
 * Issue 29 §Reservations in Chromium, with no LLM: a restaurant owner whose description gives her
 * hours ticks "Reservas"; the wizard opens with those hours (lunch and dinner, closed Mondays),
 * the browser's time zone in a searchable field of every IANA zone, and "Copiar a todos los
 * días"; its one "Guardar" turns reservations on (still on after a reload, the page's own
 * "Guardar" never pressed). On her site's widget (390 px) the free slots are chips, and clicking
 * one books it. At 1280 and 390 px; axe finds nothing serious. Screenshots in
 * /work/notes/shots/reservations-setup/ when that folder exists.
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedSnippet } from '../widget/snippet.ts';
import { createTestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { type App, ownerWithBot, withInject } from './helpers/owners.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const NOTES_SHOTS = '/work/notes/shots/reservations-setup';
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DESCRIPTION =
  'Arrocería La Albufera, en Valencia. Abrimos de 13:00 a 16:00 y de 20:00 a 23:30, cerrado los lunes.';

/**
 * A screenshot kept in test-results and, when the folder exists, the notes': the open dialog's
 * panel whole (the viewport grows to its height for the shot), else the full page.
 */
async function shot(page: Page, name: string): Promise<void> {
  const path = join(SHOTS, name);
  const size = page.viewportSize()!;
  const dialog = page.getByRole('dialog');
  if ((await dialog.count()) > 0) {
    const panel = dialog.locator(':scope > div').first();
    const height = Math.ceil((await panel.boundingBox())!.height) + 48;
    if (height > size.height) await page.setViewportSize({ width: size.width, height });
    await page.screenshot({ path });
    await page.setViewportSize(size);
  } else await page.screenshot({ path, fullPage: true });
  if (existsSync(NOTES_SHOTS)) copyFileSync(path, join(NOTES_SHOTS, name));
}

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('reservations set up in one go', () => {
  let browser: Browser;
  let app: App;
  let base: string;
  let site: Server;
  let siteOrigin: string;
  let email: string;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await withInject(await createTestApp('pglite', { llm: null }));
    await app.startChannels();
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    app.setBaseUrl(base);
    email = 'albufera@example.com';
    const owner = await ownerWithBot(app, email, {
      business_name: 'La Albufera',
      business_description: DESCRIPTION,
      idioma: 'Español',
    });
    const headers = { authorization: `Bearer ${owner.token}` };
    await app.inject({
      method: 'POST',
      url: '/api/charla-web/toggle',
      headers,
      payload: { chatbotId: owner.botId, enabled: true },
    });
    const key = (
      (
        await app.inject({
          method: 'POST',
          url: '/api/charla-web/key',
          headers,
          payload: { chatbotId: owner.botId },
        })
      ).json() as { charla_key: string }
    ).charla_key;
    site = createServer((_req, res) => {
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.end(
        `<!doctype html><html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>La Albufera</title></head><body><main><h1>La Albufera</h1></main>${embedSnippet(base, key)}</body></html>`,
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
    const context = await browser.newContext({
      viewport: { width, height },
      locale: 'es-ES',
      timezoneId: 'Atlantic/Canary',
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };

  it('ticks Reservas, gets her hours and zone, saves once; the widget books by a chip', async () => {
    // 1280 px: the whole set-up.
    const page = await newPage(1280, 900);
    await signInAs(page, base, email);
    await page.goto(`${base}/configure`);
    await page.getByRole('checkbox', { name: 'Reservas', exact: true }).check();
    const wizard = page.getByRole('dialog', { name: 'Configurar reservas' });
    await wizard.getByText('Paso 1 de 2').waitFor();
    // The description's hours: closed Monday, lunch and dinner with a break in between.
    expect(await wizard.getByRole('checkbox', { name: 'Lunes' }).isChecked()).toBe(false);
    expect(await wizard.getByRole('checkbox', { name: 'Sábado' }).isChecked()).toBe(true);
    expect(await wizard.getByLabel('Desde').nth(5).inputValue()).toBe('13:00');
    expect(await wizard.getByLabel('Pausa').nth(5).inputValue()).toBe('16:00');
    expect(await wizard.getByLabel('Hasta', { exact: true }).nth(5).inputValue()).toBe('23:30');
    expect(await wizard.getByRole('checkbox', { name: 'Permitir reservas simultáneas' }).isChecked()).toBe(
      true,
    );
    // The browser's zone, in a searchable field of every IANA zone; an unknown one is flagged.
    const zone = wizard.getByRole('combobox', { name: 'Zona horaria' });
    expect(await zone.inputValue()).toBe('Atlantic/Canary');
    expect(await wizard.locator('datalist option').count()).toBeGreaterThan(300);
    await zone.fill('Marte/Olimpo');
    await wizard.getByText('Elige una zona horaria de la lista.').waitFor();
    await zone.fill('Atlantic/Canary');
    // Monday opened at 12:30 and copied to every day.
    await wizard.getByRole('checkbox', { name: 'Lunes' }).check();
    await wizard.getByLabel('Desde').first().fill('12:30');
    await wizard.getByRole('button', { name: 'Copiar a todos los días' }).click();
    expect(await wizard.getByLabel('Desde').nth(6).inputValue()).toBe('12:30');
    expect(await seriousViolations(page)).toEqual([]);
    await shot(page, 'wizard-step1-1280.png');
    await wizard.getByRole('button', { name: 'Siguiente' }).click();
    await wizard.getByText('Atlantic/Canary').waitFor();
    await wizard.getByRole('button', { name: 'Guardar' }).click();
    await page.getByText('Configuración guardada').waitFor();
    // No "Guardar" of the page: reservations are on after a reload.
    await page.reload();
    const box = page.getByRole('checkbox', { name: 'Reservas', exact: true });
    await box.waitFor();
    await page.waitForLoadState('networkidle');
    expect(await box.isChecked()).toBe(true);
    await shot(page, 'configure-after-reload-1280.png');
    await page.context().close();

    // 390 px: the saved wizard reads well on a phone.
    const phone = await newPage(390, 844);
    await signInAs(phone, base, email);
    await phone.goto(`${base}/configure`);
    await phone.getByRole('button', { name: 'Configurar', exact: true }).click();
    const small = phone.getByRole('dialog', { name: 'Configurar reservas' });
    await small.getByRole('button', { name: 'Copiar el lunes a laborables' }).waitFor();
    expect(await small.getByRole('combobox', { name: 'Zona horaria' }).inputValue()).toBe('Atlantic/Canary');
    expect(await phone.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    expect(await seriousViolations(phone)).toEqual([]);
    await shot(phone, 'wizard-step1-390.png');

    // The widget on her site: slots as chips; a click books.
    await phone.goto(`${siteOrigin}/`);
    await phone.getByRole('button', { name: 'Abrir el chat' }).click();
    const chat = phone.getByRole('dialog', { name: 'La Albufera' });
    const input = chat.getByRole('textbox', { name: 'Escribe tu mensaje...' });
    await input.fill('Quiero reservar mesa para 2');
    await input.press('Enter');
    const chips = chat.getByRole('group').getByRole('button');
    await chips.first().waitFor();
    const labels = await chips.allTextContents();
    expect(labels[0]).toMatch(/^\d{2}:\d{2}–\d{2}:\d{2}$/);
    expect(await seriousViolations(phone)).toEqual([]);
    await shot(phone, 'widget-chips-390.png');
    // Late in the day only one of today's slots may be left: the last chip is always there.
    await chips.last().click();
    await chat.getByText(/¿A nombre de quién hago la reserva\?/).waitFor();
    expect(await chat.textContent()).toContain(labels.at(-1)!.slice(0, 5));
    await shot(phone, 'widget-picked-390.png');
    await phone.context().close();
  }, 150_000);
});
