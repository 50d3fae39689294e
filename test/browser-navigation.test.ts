/**
 * Issue 29 "Finding your way" in Chromium, on a real Charla (PGlite, no SMTP) listening on a port:
 * - the navigation (sidebar at 1280 px, bottom bar at 390 px) on every owner screen, the current one
 *   marked `aria-current="page"`, going between screens with it (no "Volver" anywhere), and at 390 px
 *   the bottom bar covering nothing and the status strip's Telegram and WhatsApp states readable;
 * - a bot saved in /configure has its web channel Activo; the Charla Key is explained; "Probar el bot
 *   web" is in the page's flow (it covers no text);
 * - the account menu on /gestion: changing the password (signing in with the new one works), and
 *   deleting the account with its confirmation removes the owner's bots;
 * - /no-existe answers 404 with the "not found" page in the visitor's language (es and en);
 * - sign-up links the terms and privacy pages; "Revisa tu correo" says the server has no mail and
 *   "Reenviar" sends the link again (a second mail in the server's outbox);
 * - axe: no serious or critical violation; screenshots in /work/notes/shots/navigation/.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { setDays } from './helpers/owners.ts';

const SHOTS = '/work/notes/shots/navigation/';
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

type Texts = Record<string, unknown>;
const locale = (code: string) =>
  JSON.parse(
    readFileSync(new URL(`../dashboard/src/i18n/locales/${code}.json`, import.meta.url), 'utf8'),
  ) as Texts;
const ES = locale('es');
const EN = locale('en');
/** A locale text by dotted key, with `{{name}}` values filled in. */
const text = (texts: Texts, key: string, values: Record<string, string> = {}) =>
  Object.entries(values).reduce(
    (s, [k, v]) => s.replaceAll(`{{${k}}}`, v),
    key.split('.').reduce<unknown>((o, k) => (o as Texts)[k], texts) as string,
  );
const es = (key: string, values?: Record<string, string>) => text(ES, key, values);
const en = (key: string) => text(EN, key);

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

/** The owner screens the navigation is on, with the item each one marks as current. */
const SCREENS = [
  { item: 'home', path: '/main' },
  { item: 'bot', path: '/configure' },
  { item: 'channels', path: '/charla-web' },
  { item: 'conversations', path: '/usuarios-conversaciones' },
  { item: 'reservations', path: '/configure#reservas' },
  { item: 'account', path: '/gestion' },
] as const;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('issue 29: finding your way', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];

  const newPage = async (width: number, localeTag = 'es-ES') => {
    const context = await browser.newContext({
      viewport: { width, height: width === 390 ? 844 : 800 },
      locale: localeTag,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };
  const shoot = (page: Page, name: string) =>
    page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  /** The item marked as the current page in the navigation. */
  const current = (page: Page) =>
    page.getByTestId('app-nav').locator('[aria-current="page"]').getAttribute('data-testid');

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite');
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await app?.close();
  });

  it('navigates every owner screen at 1280 and 390 px, manages the account, and shows 404 and "check your e-mail"', async () => {
    const owner = await app.owner('lola@example.com');
    await setDays(app, owner.id, 30);

    // 1280 px: a sidebar. The owner saves a bot in "Tu bot" and goes everywhere with the navigation.
    const page = await newPage(1280);
    await signInAs(page, base, 'lola@example.com');
    const nav = page.getByTestId('app-nav');
    await nav.getByTestId('nav-account').waitFor();
    expect(await nav.getByRole('link').allInnerTexts()).toEqual(
      ['home', 'bot', 'channels', 'conversations', 'reservations', 'account'].map((k) => es(`nav.${k}`)),
    );
    expect(await current(page)).toBe('nav-home');
    expect(await page.getByTestId('testimonials').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, 'main-1280');
    // Keyboard: the items are links reached with Tab and followed with Enter.
    await nav.getByRole('link', { name: es('nav.bot') }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/configure`);
    expect(await current(page)).toBe('nav-bot');
    await page.getByLabel('Nombre del negocio').fill('Casa Lola');
    await page.getByLabel('Descripción del negocio (comportamiento del bot)').fill('Arroces en Valencia.');
    await page.getByRole('button', { name: 'Guardar' }).click();
    await page.getByRole('heading', { name: 'Archivos adjuntos' }).waitFor();
    const bot = await app.store.db
      .selectFrom('chatbots')
      .selectAll()
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(bot.web_enabled).toBe(true);

    for (const { item, path } of SCREENS.slice(2).concat(SCREENS.slice(0, 1))) {
      await nav.getByTestId(`nav-${item}`).click();
      await page.waitForURL(`${base}${path}`);
      expect(await current(page)).toBe(`nav-${item}`);
      expect(await page.getByRole('link', { name: /^(←\s*)?Volver/ }).count()).toBe(0);
      if (item === 'channels') {
        // The saved bot's web channel is on; the key is explained; the try-out button is in the flow.
        expect(await page.getByTestId('web-status').innerText()).toBe(es('web.info.active'));
        await page.getByText(es('web.info.keyHint')).waitFor();
        const open = page.getByRole('button', { name: es('web.chat.open') });
        type Styles = { getComputedStyle(el: unknown): { position: string } };
        const position = (el: unknown) => (globalThis as unknown as Styles).getComputedStyle(el).position;
        expect(await open.evaluate(position)).toBe('static');
      }
      await shoot(page, `${item}-1280`);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // 390 px: a bottom bar that covers nothing; the status strip readable.
    await page.setViewportSize({ width: 390, height: 844 });
    const telegram = page.getByTestId('telegram-status');
    const whatsapp = page.getByTestId('whatsapp-status');
    expect(await telegram.innerText()).toBe(es('main.telegramOff'));
    expect(await whatsapp.innerText()).toBe(es('whatsapp.indicatorOff'));
    for (const state of [telegram, whatsapp]) {
      const box = (await state.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(390);
    }
    for (const { item, path } of SCREENS) {
      await nav.getByTestId(`nav-${item}`).click();
      await page.waitForURL(`${base}${path}`);
      expect(await current(page)).toBe(`nav-${item}`);
      const navBox = (await nav.boundingBox())!;
      expect(navBox.y + navBox.height).toBeCloseTo(844, 0);
      // Scrolled to the end, the screen's content ends above the bar.
      const contentBottom = await inPage<number>(
        page,
        `(() => { scrollTo(0, document.documentElement.scrollHeight); const nav = document.querySelector('[data-testid="app-nav"]'); return nav.nextElementSibling.getBoundingClientRect().bottom; })()`,
      );
      expect(contentBottom).toBeLessThanOrEqual(navBox.y + 1);
      // Nothing floats over the bar: each item's centre is the item itself.
      const covered = await inPage<string[]>(
        page,
        `[...document.querySelectorAll('[data-testid="app-nav"] a')].filter((a) => { const r = a.getBoundingClientRect(); return !a.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2)); }).map((a) => a.dataset.testid)`,
      );
      expect(covered).toEqual([]);
      expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
      await shoot(page, `${item}-390`);
    }
    expect(await seriousViolations(page)).toEqual([]);

    // The account menu (Cuenta): change the password, then sign in with the new one.
    await page.setViewportSize({ width: 1280, height: 800 });
    const account = page.getByRole('region', { name: es('account.title') });
    await account.getByLabel(es('account.password.current'), { exact: true }).fill('contraseña-segura');
    await account.getByLabel(es('account.password.new'), { exact: true }).fill('otra-clave-larga');
    await account.getByLabel(es('account.password.confirm')).fill('otra-clave-larga');
    await account.getByRole('button', { name: es('account.password.submit') }).click();
    await account.getByText(es('account.password.done')).waitFor();
    // The new e-mail gets its confirmation link (in the outbox: this server has no SMTP).
    await account.getByLabel(es('account.email.new')).fill('lola.nueva@example.com');
    await account.getByRole('button', { name: es('account.email.submit') }).click();
    await account.getByText(es('account.email.sent', { email: 'lola.nueva@example.com' })).waitFor();
    await shoot(page, 'account-1280');
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator('header summary').click();
    await page.getByRole('button', { name: es('main.logout') }).click();
    await page.waitForURL(/\/login/);
    await page.getByLabel('Correo electrónico').fill('lola@example.com');
    await page.getByLabel('Contraseña').fill('otra-clave-larga');
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL(`${base}/main`);

    // Delete the account, confirmed with the password: the owner's bots are gone.
    await page.getByTestId('nav-account').click();
    await page.getByRole('button', { name: es('gestion.data.delete') }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel(es('gestion.data.password')).fill('otra-clave-larga');
    await dialog.getByRole('button', { name: es('gestion.data.confirm') }).click();
    await page.waitForURL(/\/login\?msg=cuenta-eliminada/);
    const left = await app.store.db
      .selectFrom('chatbots')
      .select('id')
      .where('user_id', '=', owner.id)
      .execute();
    expect(left).toEqual([]);

    // Unknown addresses: status 404 and the page in the visitor's language.
    for (const [tag, title, width] of [
      ['es-ES', es('notFound.title'), 390],
      ['en-US', en('notFound.title'), 1280],
    ] as const) {
      const visitor = await newPage(width, tag);
      const response = await visitor.goto(`${base}/no-existe`);
      expect(response?.status()).toBe(404);
      await visitor.getByRole('heading', { level: 1, name: title }).waitFor();
      expect(
        await visitor
          .getByRole('link', {
            name: title === en('notFound.title') ? en('notFound.site') : es('notFound.site'),
          })
          .getAttribute('href'),
      ).toBe('/');
      expect(await seriousViolations(visitor)).toEqual([]);
      await shoot(visitor, `404-${tag}-${width}`);
    }

    // Sign-up: the terms and privacy links; "Revisa tu correo" without SMTP, and resend.
    const visitor = await newPage(390);
    await visitor.goto(`${base}/register`);
    const legal = visitor.getByTestId('register-legal');
    expect([
      await legal.getByRole('link').nth(0).getAttribute('href'),
      await legal.getByRole('link').nth(1).getAttribute('href'),
    ]).toEqual(['/legal/tos', '/legal/privacy']);
    await visitor.locator('input[name=email]').fill('nueva@example.com');
    await visitor.locator('input[name=password]').fill('clave-de-prueba');
    await visitor.locator('input[name=confirm]').fill('clave-de-prueba');
    await visitor.getByRole('button', { name: es('register.submit') }).click();
    await visitor.getByRole('heading', { name: es('register.checkEmailTitle') }).waitFor();
    await visitor.getByText(es('register.noMail')).waitFor();
    await visitor.getByRole('button', { name: es('register.resend') }).click();
    await visitor.getByText(es('register.resent')).waitFor();
    const mails = readdirSync(join(app.dataDir, 'outbox')).filter((f) =>
      f.endsWith('-nueva@example.com.eml'),
    );
    expect(mails.length).toBe(2);
    expect(await seriousViolations(visitor)).toEqual([]);
    await shoot(visitor, 'check-email-390');
  }, 360_000);
});
