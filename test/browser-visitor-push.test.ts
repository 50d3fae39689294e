/**
 * The IALanding's offer of browser notifications in Chromium (issue 28 §2), on a real Charla (PGlite)
 * with VAPID keys: no offer before the visitor writes; after their first message "Recibir avisos
 * cuando el negocio te responda" shows, and its click (permission granted) registers /sw.js,
 * subscribes and sends the subscription with the chat's visitor id, stored for the bot. The
 * browser's push service is stood in for by a stub of `PushManager.subscribe` (headless Chromium
 * has no push service offline); the delivery itself is test/visitor-push.test.ts's.
 * Needs the built dashboard and IALanding island (scripts/dashboard.mjs, scripts/site.mjs).
 * Screenshots at 390 and 1280 px.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import webpush from 'web-push';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { CHROMIUM_PATH, launchChromium, openLanding } from './helpers/chromium.ts';
import { until } from './helpers/owners.ts';

const SHOTS = '/work/notes/shots/visitor-push/';
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('IALanding push offer in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let base: string;
  let slug: string;
  let botId: string;
  const vapid = webpush.generateVAPIDKeys();

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    app = await createTestApp('pglite', {
      llm: null,
      env: {
        CHARLA_VAPID_PUBLIC_KEY: vapid.publicKey,
        CHARLA_VAPID_PRIVATE_KEY: vapid.privateKey,
        CHARLA_PUSH_ALLOW_PRIVATE: 'on',
      },
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
    const owner = await app.owner('avisos@example.com');
    const call = async (url: string, payload: object) => {
      const res = await http.inject({
        method: 'POST',
        url,
        headers: { authorization: `Bearer ${owner.token}` },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as Record<string, string>;
    };
    botId = (
      await call('/api/save-chatbot', {
        business_name: 'Floristería Rosa',
        business_description: 'Ramos y centros de flores en Málaga.',
        idioma: 'Español',
      })
    ).id!;
    const key = (await call('/api/charla-web/key', { chatbotId: botId })).charla_key!;
    await call('/api/charla-web/toggle', { chatbotId: botId, enabled: true });
    slug = (await call('/api/charla-web/ialanding', { chatbotId: botId, key })).slug!;
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const width of [390, 1280]) {
    it(`offers notifications only after the visitor writes, and subscribes on click (${width} px)`, async () => {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      await context.grantPermissions(['notifications'], { origin: base });
      // The browser's push service: a stub subscription on a local endpoint (see the module comment).
      const endpoint = `https://127.0.0.1:9/push/${width}`;
      await context.addInitScript((ep: string) => {
        const keys = { p256dh: `B${'A'.repeat(86)}`, auth: 'QUFBQUFBQUFBQUFBQUFBQQ' };
        // The test's TypeScript has no DOM types: the browser's PushManager, loosely typed.
        const manager = (globalThis as unknown as { PushManager: { prototype: Record<string, unknown> } })
          .PushManager;
        manager.prototype.getSubscription = async () => null;
        manager.prototype.subscribe = async () => ({ endpoint: ep, toJSON: () => ({ endpoint: ep, keys }) });
      }, endpoint);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await openLanding(page, `${base}/ialanding/${slug}`);
      const offer = page.getByTestId('ialanding-push');
      expect(await offer.count()).toBe(0);

      await page.getByLabel('Escribe tu mensaje...').fill('¿Hacéis ramos de novia?');
      await page.getByTestId('ialanding-chatbar').getByRole('button').click();
      await offer.waitFor();
      expect(await offer.textContent()).toContain('Recibir avisos cuando el negocio te responda');
      await page.screenshot({ path: `${SHOTS}offer-${width}.png`, fullPage: false });

      await offer.click();
      await page.locator('[data-testid="ialanding-push"][data-state="on"]').waitFor();
      expect(await offer.textContent()).toContain('te avisaremos en este navegador');
      await page.screenshot({ path: `${SHOTS}on-${width}.png`, fullPage: false });
      const visitor = await page.evaluate(() =>
        Object.entries((globalThis as unknown as { localStorage: Record<string, string> }).localStorage).find(
          ([k]) => k.endsWith(':visitor'),
        ),
      );
      const rows = await until(async () => {
        const r = await app.store.db
          .selectFrom('web_visitor_push_subscriptions' as never)
          .select(['visitor_id' as never, 'chatbot_id' as never])
          .execute();
        return r.length > 0 ? (r as unknown as Array<{ visitor_id: string; chatbot_id: string }>) : null;
      });
      expect(rows.at(-1)).toEqual({ visitor_id: visitor?.[1], chatbot_id: botId });
      await context.close();
      await app.store.db.deleteFrom('web_visitor_push_subscriptions' as never).execute();
    });
  }
});
