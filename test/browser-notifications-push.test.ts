/**
 * Web Push on the owner's device (issue 27 §1), in Chromium on a real Charla (PGlite) with VAPID
 * keys: "Activar push en este dispositivo" on /gestion asks the permission, registers /sw.js for the
 * whole app, subscribes with the server's key and sends the subscription; "Desactivar" deletes it.
 * The browser's push service is out of reach here (no network), so `pushManager.subscribe` is
 * replaced by one that records its arguments and answers a subscription with real P-256 keys; a push
 * delivered to the service worker (Chromium's DevTools protocol) shows as a system notification with
 * its title, text, tag and link. Screenshots of the section at 390 and 1280 px (NOTIFY_SHOTS).
 */
import { createECDH, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
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

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('Web Push on this device in Chromium', () => {
  let app: TestApp;
  let base: string;
  let browser: Browser;
  const vapid = webpush.generateVAPIDKeys();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', {
      llm: null,
      env: {
        CHARLA_VAPID_PUBLIC_KEY: vapid.publicKey,
        CHARLA_VAPID_PRIVATE_KEY: vapid.privateKey,
        CHARLA_VAPID_SUBJECT: 'mailto:ops@example.com',
        // The stand-in push service is on this machine (by default a private address is refused).
        CHARLA_PUSH_ALLOW_PRIVATE: 'on',
      },
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    await app.owner('push@example.com');
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  it('subscribes and unsubscribes this device, and the service worker shows a push', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.grantPermissions(['notifications'], { origin: base });
    const p256dh = createECDH('prime256v1').generateKeys().toString('base64url');
    const auth = randomBytes(16).toString('base64url');
    // The push service stand-in: subscribe records its options and answers a subscription.
    await context.addInitScript(`{
      window.__subscribeCalls = [];
      let current = null;
      const fake = (endpoint) => ({
        endpoint,
        expirationTime: null,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh: '${p256dh}', auth: '${auth}' } }),
        unsubscribe: async () => { current = null; return true; },
      });
      PushManager.prototype.subscribe = async function (options) {
        window.__subscribeCalls.push({
          userVisibleOnly: options.userVisibleOnly,
          key: btoa(String.fromCharCode(...new Uint8Array(options.applicationServerKey))),
        });
        current = fake('https://push.example/send/device-1');
        return current;
      };
      PushManager.prototype.getSubscription = async function () { return current; };
    }`);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, 'push@example.com');
    await page.goto(`${base}/gestion`);
    await page.getByRole('heading', { name: N.title, exact: true }).waitFor();
    // Push is available: its column is on and no "not available" note.
    await page.getByRole('group', { name: N.events.new_conversation.title }).waitFor();
    expect(
      await page
        .getByRole('group', { name: N.events.new_conversation.title })
        .getByRole('checkbox', { name: N.routes.push, exact: true })
        .isDisabled(),
    ).toBe(false);
    expect(await page.getByText(N.pushUnavailable).count()).toBe(0);
    await page.getByText(N.push.off).waitFor();

    const posted = page.waitForResponse(
      (r) => r.url().endsWith('/api/notifications/push/subscriptions') && r.request().method() === 'POST',
    );
    await page.getByRole('button', { name: N.push.enable }).click();
    const post = await posted;
    expect(post.status()).toBe(204);
    expect(post.request().postDataJSON()).toEqual({
      endpoint: 'https://push.example/send/device-1',
      keys: { p256dh, auth },
    });
    await page.getByText(N.push.on).waitFor();
    const calls = await inPage<Array<{ userVisibleOnly: boolean; key: string }>>(
      page,
      'window.__subscribeCalls',
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]?.userVisibleOnly).toBe(true);
    expect(Buffer.from(calls[0]?.key ?? '', 'base64').toString('base64url')).toBe(vapid.publicKey);
    // The worker is the app's, for the whole app.
    expect(
      await inPage<string>(
        page,
        `navigator.serviceWorker.getRegistration('/').then((r) => r.active.scriptURL)`,
      ),
    ).toBe(`${base}/sw.js`);
    expect(
      await inPage<string>(page, `navigator.serviceWorker.getRegistration('/').then((r) => r.scope)`),
    ).toBe(`${base}/`);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 844 });
      await page.locator('#avisos').screenshot({ path: join(SHOTS, `settings-push-on-${width}.png`) });
    }
    expect(await seriousViolations(page)).toEqual([]);

    // A push reaches the worker: it shows as a system notification with the payload.
    const cdp = await context.newCDPSession(page);
    const registration = new Promise<string>((resolve) => {
      cdp.on(
        'ServiceWorker.workerRegistrationUpdated',
        (e: { registrations: Array<{ registrationId: string; scopeURL: string }> }) => {
          const r = e.registrations.find((x) => x.scopeURL === `${base}/`);
          if (r) resolve(r.registrationId);
        },
      );
    });
    await cdp.send('ServiceWorker.enable');
    const payload = {
      title: 'Bar Avisos: nueva reserva',
      body: 'Nueva reserva: 2026-12-01 21:00 · 4',
      url: '/configure?tab=reservas',
      tag: '77',
    };
    await cdp.send('ServiceWorker.deliverPushMessage', {
      origin: base,
      registrationId: await registration,
      data: JSON.stringify(payload),
    });
    await expect
      .poll(() =>
        inPage<number>(
          page,
          `navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications()).then((n) => n.length)`,
        ),
      )
      .toBe(1);
    expect(
      await inPage(
        page,
        `navigator.serviceWorker.getRegistration('/').then((r) => r.getNotifications()).then((n) => n.map((x) => ({ title: x.title, body: x.body, tag: x.tag, url: x.data.url })))`,
      ),
    ).toEqual([{ title: payload.title, body: payload.body, tag: payload.tag, url: `${base}${payload.url}` }]);

    const deleted = page.waitForResponse(
      (r) => r.url().endsWith('/api/notifications/push/subscriptions') && r.request().method() === 'DELETE',
    );
    await page.getByRole('button', { name: N.push.disable }).click();
    expect((await deleted).status()).toBe(204);
    await page.getByText(N.push.off).waitFor();
    await page.getByRole('button', { name: N.push.enable }).waitFor();
    await context.close();
  }, 120_000);
});
