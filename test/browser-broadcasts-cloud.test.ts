/**
 * The broadcast dialog for WhatsApp Cloud followers (issue 28 §1), in Chromium: with Charla's
 * broadcast template approved in the bot's language, the confirmation counts the Cloud followers
 * it reaches as that template, warns that Meta charges each marketing message (with Meta's prices),
 * and shows the follower who wrote BAJA as left out; Cancel sends nothing. axe finds no serious
 * violation. Screenshots at 390 and 1280 px in /work/notes/shots/broadcasts-cloud/.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveTemplate } from '../adapters/whatsapp/cloud/template-queries.ts';
import type { WaDb } from '../adapters/whatsapp/tables.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const NOTES_SHOTS = '/work/notes/shots/broadcasts-cloud';
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const EMAIL = 'nube-difusion@example.com';
const DAY = 86_400_000;

const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: join(SHOTS, name) });
  if (existsSync('/work/notes')) {
    mkdirSync(NOTES_SHOTS, { recursive: true });
    await page.screenshot({ path: join(NOTES_SHOTS, name) });
  }
};

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)(
  'broadcasts to WhatsApp Cloud in Chromium',
  () => {
    let app: TestApp;
    let base: string;
    let browser: Browser;
    let botId: string;

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      app = await createTestApp('pglite', { llm: null });
      const http = await app.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      const owner = await app.owner(EMAIL);
      const expires = new Date(Date.now() + 30 * DAY);
      await app.store.db
        .insertInto('user_profiles')
        .values({ user_id: owner.id, plan: 'free', expires_at: expires })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
        .execute();
      const res = await (await app.http()).inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { business_name: 'Bar Nube', idioma: 'Español', business_description: 'Bar de tapas.' },
      });
      botId = (res.json() as { id: string }).id;
      await app.store.db
        .insertInto('followers')
        .values(
          ['34600100001', '34600100002', '34600100003', '81005'].map((id) => ({
            chatbot_id: botId,
            channel: id.length > 5 ? 'whatsapp' : 'telegram',
            external_id: id,
          })),
        )
        .execute();
      await app.store.db
        .withTables<{ broadcast_optouts: { chatbot_id: string; channel: string; chat_id: string } }>()
        .insertInto('broadcast_optouts')
        .values({ chatbot_id: botId, channel: 'whatsapp', chat_id: '34600100003' })
        .execute();
      await saveTemplate(app.store.db as unknown as WaDb, {
        chatbotId: botId,
        name: 'charla_broadcast',
        language: 'es',
        status: 'APPROVED',
      });
      browser = await launchChromium();
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    for (const width of [390, 1280]) {
      it(`warns of Meta's per-message cost at ${width} px`, async () => {
        const context = await browser.newContext({ viewport: { width, height: 860 }, locale: 'es-ES' });
        const page = await context.newPage();
        page.setDefaultTimeout(15_000);
        await signInAs(page, base, EMAIL);
        await page.goto(`${base}/usuarios-conversaciones`);
        if (width < 700) await page.getByRole('button', { name: '📣 Difusión' }).click();
        await page
          .getByRole('textbox', { name: 'Mensaje para todos tus seguidores' })
          .fill('Hoy, tapas a 2 €.');
        await page.getByRole('button', { name: 'Enviar a todos' }).click();
        const dialog = page.getByRole('dialog', { name: '¿Enviar esta difusión?' });
        await dialog.getByRole('button', { name: 'Enviar a 3' }).waitFor();
        await dialog
          .getByText(
            'WhatsApp Cloud: 2 seguidores lo recibirán con la plantilla aprobada «charla_broadcast».',
          )
          .waitFor();
        await dialog.getByText(/Meta cobra cada mensaje de marketing; consulta sus precios/).waitFor();
        expect(await dialog.getByRole('link', { name: 'Precios de Meta' }).getAttribute('href')).toMatch(
          /^https:\/\/developers\.facebook\.com\//,
        );
        expect(await dialog.locator('[data-audience="whatsappCloud"]').innerText()).toMatch(
          /WhatsApp Cloud\s+2 seguidores\s+1 pidió no recibir difusiones: no se le envía\./,
        );
        expect(await seriousViolations(page)).toEqual([]);
        await shot(page, `broadcast-cloud-${width}.png`);
        await dialog.getByRole('button', { name: 'Cancelar' }).click();
        await dialog.waitFor({ state: 'detached' });
        const sent = await app.store.db
          .withTables<{ broadcasts: { chatbot_id: string } }>()
          .selectFrom('broadcasts')
          .select('chatbot_id')
          .where('chatbot_id', '=', botId)
          .execute();
        expect(sent).toEqual([]);
        await context.close();
      }, 120_000);
    }
  },
);
