/**
 * The WhatsApp templates panel in Chromium (issue 28 §1, §4): an owner with a Cloud API number
 * sees Charla's templates "not submitted", submits them with one click (they reach the local Graph
 * server), then sees Meta's review (one approved, one rejected with Meta's reason, by the signed
 * status webhook) and the late reply held for a follower silent for 25 hours, with why. axe finds
 * nothing serious; screenshots at 390 and 1280 px into /work/notes/shots/templates/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWhatsAppAdapter } from '../adapters/whatsapp/index.ts';
import type { ChannelAdapter } from '../engine/registry/index.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { setDays, until } from './helpers/owners.ts';
import { type FakeGraph, hubSignature, messageWebhook, startFakeGraph } from './servers/graph.ts';

const SHOTS =
  process.env.TEMPLATE_SHOTS ?? new URL('../test-results/screenshots/templates/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const APP_SECRET = 'browser-template-secret';

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('WhatsApp templates panel (Chromium)', () => {
  let app: TestApp;
  let graph: FakeGraph;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    graph = await startFakeGraph();
    app = await createTestApp('pglite', {
      env: { WHATSAPP_GRAPH_URL: graph.url, META_APP_ID: '1234567890', META_APP_SECRET: APP_SECRET },
      supervisorIntervalMs: 200,
      adapters: [createWhatsAppAdapter()] as unknown as ReadonlyArray<ChannelAdapter<never>>,
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    await app.startChannels();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await graph?.close();
  });

  it('submits the templates, shows Meta’s review with its reason and the held reply', async () => {
    const email = 'plantillas-browser@example.com';
    const owner = await app.owner(email);
    await setDays(app, owner.id, 30);
    const http = await app.http();
    const auth = { authorization: `Bearer ${owner.token}` };
    const saved = await http.inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth,
      payload: { business_name: 'Panadería Sol', business_description: 'Pan artesano.', idioma: 'Español' },
    });
    const botId = (saved.json() as { id: string }).id;
    const token = 'EAAbrowsertemplatesxxxxxxxxxxxxxxxx';
    graph.addNumber({
      id: '7701',
      display_phone_number: '+34 600 111 222',
      verified_name: 'Sol',
      tokens: [token],
      wabaId: '9901',
    });
    const connected = await http.inject({
      method: 'POST',
      url: '/api/connect-whatsapp-cloud',
      headers: auth,
      payload: { chatbotId: botId, phoneNumberId: '7701', businessAccountId: '9901', accessToken: token },
    });
    expect(connected.statusCode, connected.body).toBe(200);

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await signInAs(page, base, email);
    await page.goto(`${base}/configure`);
    const panel = page.getByTestId('whatsapp-templates');
    await panel.getByRole('heading', { name: 'Plantillas de mensajes de WhatsApp' }).waitFor();
    await panel.getByText('0 aprobadas · 0 en revisión · 0 rechazadas · 42 sin enviar').waitFor();

    await panel.getByRole('button', { name: 'Enviar plantillas a Meta' }).click();
    await panel.getByText('0 aprobadas · 42 en revisión · 0 rechazadas · 0 sin enviar').waitFor();
    expect([...graph.templates.values()].filter((t) => t.wabaId === '9901')).toHaveLength(42);

    // Meta's review by webhook; a follower silent for 25 hours gets the owner's late reply held.
    const hook = { url: `${base}/channels/whatsapp`, appSecret: APP_SECRET };
    for (const lang of ['es', 'en', 'fr', 'de', 'it', 'ru', 'hi'])
      await graph.reviewTemplate(
        { wabaId: '9901', name: 'charla_team_answered', language: lang },
        'APPROVED',
        { webhook: hook },
      );
    await graph.reviewTemplate(
      { wabaId: '9901', name: 'charla_booking_changed', language: 'fr' },
      'REJECTED',
      {
        reason: 'INVALID_FORMAT',
        webhook: hook,
      },
    );
    const m = messageWebhook(
      '7701',
      { waId: '34611222333', name: 'Lucía' },
      { type: 'text', text: { body: '¿Me guardáis dos barras para mañana?' } },
      { timestamp: Math.floor((Date.now() - 25 * 3_600_000) / 1000) },
    );
    const raw = JSON.stringify(m.body);
    await http.inject({
      method: 'POST',
      url: '/channels/whatsapp',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': hubSignature(raw, APP_SECRET) },
      payload: raw,
    });
    await until(
      async () =>
        (
          await http.inject({
            method: 'POST',
            url: `/api/conversations/${botId}/reply`,
            headers: auth,
            payload: {
              channel: 'whatsapp',
              userId: '34611222333',
              text: 'Sí, Lucía: dos barras a tu nombre.',
            },
          })
        ).statusCode === 200,
      8000,
      'owner reply',
    );
    await page.reload();
    await panel.getByText('7 aprobadas · 34 en revisión · 1 rechazadas · 0 sin enviar').waitFor();
    await panel.getByText('Motivo de Meta: INVALID_FORMAT').waitFor();
    const waiting = page.getByTestId('whatsapp-waiting');
    await waiting.getByText('Sí, Lucía: dos barras a tu nombre.').waitFor();
    await waiting.getByText(/Se envió la plantilla «El equipo ha respondido a tu mensaje»/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await panel.scrollIntoViewIfNeeded();
      await panel.screenshot({ path: join(SHOTS, `whatsapp-templates-${width}.png`) });
    }
    // The follower's conversation says it too, with why (issue 28 §1: on the conversation).
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/usuarios-conversaciones?chatbotId=${botId}&channel=whatsapp&userId=34611222333`);
    const note = page.getByTestId('whatsapp-waiting-list');
    await note.getByText('Sí, Lucía: dos barras a tu nombre.').waitFor();
    await note.getByText(/Se envió la plantilla «El equipo ha respondido a tu mensaje»/).waitFor();
    await context.close();
  });
});
