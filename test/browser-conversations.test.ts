/**
 * Issue 14's followers' screen in Chromium, on a real Charla (PGlite) listening on a port, with the
 * demo seeded and its Telegram bot on the Bot API emulator: a follower's Telegram message appears
 * live on /usuarios-conversaciones (no reload), the owner answers from the screen and the follower
 * gets it, the bot stays quiet ("Bot pausado") for the follower's next message, and the screen
 * works at 375 px. Screenshots at 1280 and 375 px; axe finds nothing serious.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)(
  'followers’ conversations in Chromium',
  () => {
    let browser: Browser;
    let app: TestApp;
    let telegram: FakeTelegram;
    let base: string;
    let tgToken: string;

    const replies = (chatId: number) =>
      telegram
        .callsOf(tgToken, 'sendMessage')
        .filter((c) => String(c.params.chat_id) === String(chatId))
        .map((c) => String(c.params.text));

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      telegram = await startFakeTelegram();
      app = await createTestApp('pglite', {
        llm: null,
        env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling' },
      });
      await app.startChannels();
      const http = await app.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      const demo = await seedDemo(app);
      const owner = await app.owner(DEMO_EMAIL);
      const tg = telegram.addBot('PatoPepeBot');
      tgToken = tg.token;
      const connected = await http.inject({
        method: 'POST',
        url: '/api/verify-telegram',
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { telegramToken: tg.token, telegramUsername: tg.username, chatbotId: demo.bot.id },
      });
      expect(connected.statusCode, connected.body).toBe(200);
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
      await telegram?.close();
    });

    it('shows a Telegram message live, answers it from the screen, and keeps the bot quiet', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, locale: 'es-ES' });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signInAs(page, base, DEMO_EMAIL);
      await page.getByTestId('card-followers').click();
      await page.getByRole('heading', { name: 'Conversaciones con seguidores' }).waitFor();
      await page.getByText('Aún no te ha escrito ningún seguidor.').waitFor();

      await telegram.sendText(tgToken, { id: 4321, username: 'lucia_m' }, '¿Tenéis mesa para esta noche?');
      const follower = page.getByRole('button', { name: /lucia_m/ });
      await follower.waitFor(); // live: no reload
      await telegram.waitFor(() => replies(4321).length === 1); // the bot answered
      await follower.click();
      const log = page.getByRole('log', { name: 'Conversación' });
      await log.getByText('¿Tenéis mesa para esta noche?').waitFor();

      const box = page.getByRole('textbox', { name: 'Tu respuesta' });
      await box.fill('Hola Lucía, soy Pepe: sí, te guardo la mesa de la ventana.');
      await box.press('Enter');
      await log.getByText('Hola Lucía, soy Pepe: sí, te guardo la mesa de la ventana.').waitFor();
      expect(replies(4321).at(-1)).toBe('Hola Lucía, soy Pepe: sí, te guardo la mesa de la ventana.');
      expect(await page.getByRole('switch', { name: 'Bot pausado' }).isChecked()).toBe(true);
      await page.getByText(/El bot no responde a este seguidor hasta las/).waitFor();

      // The follower answers: shown live, and the bot says nothing.
      await telegram.sendText(tgToken, { id: 4321, username: 'lucia_m' }, '¡Genial, gracias!');
      await log.getByText('¡Genial, gracias!').waitFor();
      await new Promise((r) => setTimeout(r, 800));
      expect(replies(4321)).toHaveLength(2);
      await page.screenshot({ path: join(SHOTS, 'conversations-1280.png') });
      expect(await seriousViolations(page)).toEqual([]);

      // Resume: the bot answers the next message again.
      await page.getByRole('switch', { name: 'Bot pausado' }).click();
      await expect.poll(() => page.getByRole('switch', { name: 'Bot pausado' }).isChecked()).toBe(false);
      await telegram.sendText(tgToken, { id: 4321, username: 'lucia_m' }, '¿A qué hora abrís el sábado?');
      await telegram.waitFor(() => replies(4321).length === 3);
      await context.close();
    });

    it('works at 375 px: the list collapses once a follower is open', async () => {
      const context = await browser.newContext({ viewport: { width: 375, height: 812 }, locale: 'es-ES' });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await signInAs(page, base, DEMO_EMAIL);
      await page.goto(`${base}/usuarios-conversaciones`);
      await page.getByRole('button', { name: /lucia_m/ }).click();
      await page
        .getByRole('log', { name: 'Conversación' })
        .getByText('¿Tenéis mesa para esta noche?')
        .waitFor();
      expect(await page.getByRole('button', { name: /lucia_m/ }).isVisible()).toBe(false);
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375);
      await page.screenshot({ path: join(SHOTS, 'conversations-375.png'), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Ver seguidores' }).click();
      await page.getByRole('button', { name: /lucia_m/ }).waitFor();
      await context.close();
    });
  },
);
