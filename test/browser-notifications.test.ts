/**
 * The owner's notifications in the dashboard (issue 27 §1), in Chromium on a real Charla (PGlite)
 * listening on a port:
 *
 * - "Avisos" on /gestion: a toggle is saved at once and is still there after a reload, the mails'
 *   language too; a save the server refuses puts the box back and says so; the Telegram column is
 *   off with a link to the Conversations screen until the owner links their Telegram, the push
 *   column off with "your operator can enable it" (no setting names shown); the browser's
 *   permission is asked only on "Activar avisos del navegador". Fits 390 px with no sideways scroll,
 *   no serious or critical axe violation; screenshots at 390 and 1280 px
 *   (NOTIFY_SHOTS, default test-results/screenshots/notifications/).
 * - In-page alerts: with the dashboard open on any page, a web visitor's first message shows a card
 *   in the live region (role=status) with the business and a link to the conversation, and, the
 *   permission given and the tab in the background, a system notification tagged with the alert's id.
 *
 * Web Push on a device: test/browser-notifications-push.test.ts.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';

const SHOTS =
  process.env.NOTIFY_SHOTS ?? new URL('../test-results/screenshots/notifications/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
// biome-ignore lint/suspicious/noExplicitAny: the locale file's shape, read as JSON
const es: any = JSON.parse(
  readFileSync(new URL('../dashboard/src/i18n/locales/es.json', import.meta.url), 'utf8'),
);
const N = es.notifications;
const BUSINESS = 'Bar Avisos';
const DAY = 86_400_000;

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('owner notifications in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  let owner: { id: string; token: string };
  let key: string;

  const inject = async (url: string, payload: Record<string, unknown>) => {
    const res = await (await app.http()).inject({
      method: 'POST',
      url,
      headers: { authorization: `Bearer ${owner.token}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as Record<string, unknown>;
  };

  /** Full-page screenshots at 1280 and 390 px; the page's width at each (wider = sideways scroll). */
  const shoot = async (page: Page, name: string) => {
    const widths: Record<number, number> = {};
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.waitForTimeout(200);
      widths[width] = await inPage<number>(page, 'document.documentElement.scrollWidth');
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    return widths;
  };

  /** The checkbox of one event × route on the settings screen. */
  const box = (page: Page, kind: string, route: string) =>
    page
      .getByRole('group', { name: N.events[kind].title })
      .getByRole('checkbox', { name: N.routes[route], exact: true });

  /** Waits for the next settings save and answers its status. */
  const saved = (page: Page) =>
    page
      .waitForResponse(
        (r) => r.url().endsWith('/api/notifications/settings') && r.request().method() === 'PUT',
      )
      .then((r) => r.status());

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', { llm: null });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    owner = await app.owner('avisos@example.com');
    const expires = new Date(Date.now() + 30 * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: owner.id, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
    const botId = (
      await inject('/api/save-chatbot', {
        business_name: BUSINESS,
        idioma: 'Español',
        business_description: 'Bar de tapas en Sevilla.',
      })
    ).id as string;
    key = (await inject('/api/charla-web/key', { chatbotId: botId })).charla_key as string;
    await inject('/api/charla-web/toggle', { chatbotId: botId, enabled: true });
    await app.startChannels(); // the job queue: alerts are jobs
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('saves each toggle and the language at once, keeps them after a reload, and fits 390 px', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Counts permission requests: the page may ask only when the owner clicks the button.
    await context.addInitScript(`{
      window.__asked = 0;
      const ask = Notification.requestPermission.bind(Notification);
      Notification.requestPermission = (...a) => { window.__asked++; return ask(...a); };
    }`);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, 'avisos@example.com');
    await page.goto(`${base}/gestion`);
    await page.getByRole('heading', { name: N.title, exact: true }).waitFor();

    // Every event is there, all routes on by default; Telegram and push are off with their reasons.
    for (const kind of ['new_conversation', 'asks_person', 'booking_new', 'booking_changed']) {
      expect(await box(page, kind, 'email').isChecked(), kind).toBe(true);
      expect(await box(page, kind, 'page').isChecked(), kind).toBe(true);
      expect(await box(page, kind, 'telegram').isDisabled(), kind).toBe(true);
      expect(await box(page, kind, 'push').isDisabled(), kind).toBe(true);
    }
    await page.getByText(N.telegramNote).waitFor();
    await page.getByRole('link', { name: N.telegramLink }).waitFor();
    await page.getByText(N.pushUnavailable).waitFor();
    const text = await inPage<string>(page, 'document.body.innerText');
    expect(text).not.toMatch(/VAPID|_KEY|PUBLIC_URL/);

    const widths = await shoot(page, 'settings');
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.locator('#avisos').screenshot({ path: join(SHOTS, `settings-section-${width}.png`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(widths[1280]).toBeLessThanOrEqual(1280);
    expect(widths[390]).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page)).toEqual([]);

    // Off: saved at once (the box changes before the answer), and so is the language.
    let status = saved(page);
    await box(page, 'booking_new', 'email').click();
    expect(await box(page, 'booking_new', 'email').isChecked()).toBe(false);
    expect(await status).toBe(200);
    status = saved(page);
    await box(page, 'new_conversation', 'page').click();
    expect(await status).toBe(200);
    status = saved(page);
    await page.getByLabel(N.language).selectOption('en');
    expect(await status).toBe(200);

    // A save the server refuses: the box comes back and the owner is told.
    await page.route('**/api/notifications/settings', (route) =>
      route.request().method() === 'PUT'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"x"}' })
        : route.fallback(),
    );
    await box(page, 'asks_person', 'email').click();
    await page.getByText(N.saveError).waitFor();
    await expect.poll(() => box(page, 'asks_person', 'email').isChecked()).toBe(true);
    await page.unroute('**/api/notifications/settings');

    await page.reload();
    await page.getByRole('heading', { name: N.title, exact: true }).waitFor();
    await box(page, 'booking_new', 'email').waitFor();
    expect(await box(page, 'booking_new', 'email').isChecked()).toBe(false);
    expect(await box(page, 'new_conversation', 'page').isChecked()).toBe(false);
    expect(await box(page, 'asks_person', 'email').isChecked()).toBe(true);
    expect(await box(page, 'booking_changed', 'email').isChecked()).toBe(true);
    expect(await page.getByLabel(N.language).inputValue()).toBe('en');

    // The permission is asked on the click only.
    expect(await inPage<number>(page, 'window.__asked')).toBe(0);
    await page.getByRole('button', { name: N.browser.enable }).click();
    await page.getByText(new RegExp(`${N.browser.granted}|${N.browser.denied}`)).waitFor();
    expect(await inPage<number>(page, 'window.__asked')).toBe(1);
    await shoot(page, 'settings-after');

    // Back to all on, in Spanish, for the next test.
    status = saved(page);
    await page.getByLabel(N.language).selectOption('es');
    expect(await status).toBe(200);
    for (const [kind, route] of [
      ['booking_new', 'email'],
      ['new_conversation', 'page'],
    ] as const) {
      status = saved(page);
      await box(page, kind, route).click();
      expect(await status).toBe(200);
    }
    await context.close();
  }, 120_000);

  it('shows an alert card, and a system notification when in the background, for a new visitor', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    // A recording Notification with the permission given, and the tab in the background.
    await context.addInitScript(`{
      window.__notes = [];
      class FakeNotification {
        static permission = 'granted';
        static requestPermission = async () => 'granted';
        constructor(title, options) { window.__notes.push({ title, ...options }); }
        close() {}
      }
      window.Notification = FakeNotification;
      document.hasFocus = () => false;
    }`);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, 'avisos@example.com');
    // The stream is open before the visitor writes.
    const streamOpen = page.waitForResponse((r) => r.url().endsWith('/api/notifications/stream'));
    await page.goto(`${base}/charla-web`);
    expect((await streamOpen).status()).toBe(200);

    const res = await (await app.http()).inject({
      method: 'POST',
      url: `/api/web/${key}/message`,
      headers: { origin: 'https://bar.example' },
      payload: { userMessage: '¿Tenéis mesa para cuatro esta noche?', visitorId: 'visitante-avisos' },
    });
    expect(res.statusCode, res.body).toBe(200);

    const card = page.getByRole('status').filter({ hasText: BUSINESS });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.textContent()).toContain('¿Tenéis mesa para cuatro esta noche?');
    const link = card.getByRole('link', { name: N.alerts.open });
    expect(await link.getAttribute('href')).toContain('/usuarios-conversaciones');
    const notes = await inPage<Array<{ title: string; body: string; tag: string }>>(page, 'window.__notes');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.title).toContain(BUSINESS);
    expect(notes[0]?.tag).toMatch(/\S/);
    expect(await inPage<number>(page, 'document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    await page.screenshot({ path: join(SHOTS, 'alert-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.screenshot({ path: join(SHOTS, 'alert-1280.png') });
    expect(await seriousViolations(page)).toEqual([]);

    // "Abrir" goes to the conversation inside the app.
    await link.click();
    await page.waitForURL(/\/usuarios-conversaciones\?/);
    await context.close();
  }, 120_000);
});
