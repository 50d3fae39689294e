/**
 * Connecting Telegram from the dashboard, in Chromium (issue 5): on /configure the owner pastes a
 * token and the username, sees the errors in words (wrong username), then the connection with its
 * health ("Conectado", long polling), the open-bot link and the green status-bar indicator; the
 * status-bar modal offers Disconnect, which turns the indicator red. An owner without days sees the
 * "bot disconnected for lack of days" panel instead of the form, and one with 10 days or fewer the
 * warning. Telegram is the local Bot API wire-format server. axe finds nothing serious; screenshots
 * at 1280 and 375 px.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DAY = 86_400_000;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)(
  'Telegram in the dashboard (Chromium)',
  () => {
    let app: TestApp;
    let telegram: FakeTelegram;
    let base: string;
    let browser: Browser;

    const shoot = async (page: Page, name: string) => {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    };

    /** An owner with `days` left and a saved bot, signed in on a new page. */
    const ownerPage = async (email: string, days: number) => {
      const owner = await app.owner(email);
      const expires = new Date(Date.now() + days * DAY);
      await app.store.db
        .insertInto('user_profiles')
        .values({ user_id: owner.id, plan: 'free', expires_at: expires })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
        .execute();
      const http = await app.http();
      const saved = await http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { business_name: 'Panadería Sol', business_description: 'Pan artesano.' },
      });
      expect(saved.statusCode).toBe(200);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      page.on('dialog', (d) => void d.accept());
      await signInAs(page, base, email);
      return { page, context };
    };

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      telegram = await startFakeTelegram();
      app = await createTestApp('pglite', {
        env: { TELEGRAM_API_ROOT: telegram.apiRoot, TELEGRAM_MODE: 'polling', TELEGRAM_POLL_TIMEOUT_S: '2' },
      });
      const http = await app.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
      await telegram?.close();
    });

    it('connects a bot by token on /configure, shows its health, and disconnects from the status bar', async () => {
      const bot = telegram.addBot('panaderia_sol_bot');
      const { page, context } = await ownerPage('tg-dueno@example.com', 30);
      expect(await page.getByTestId('telegram-status').textContent()).toContain('Telegram no conectado');
      await page.goto(`${base}/configure`);
      const section = page.getByTestId('telegram-connect');
      await section.getByLabel('Token del bot').fill(bot.token);
      await section.getByLabel('Nombre de usuario del bot').fill('@otro_bot');
      await section.getByRole('button', { name: 'Conectar Telegram' }).click();
      await section
        .getByText(
          'Error al conectar Telegram: El nombre de usuario no coincide: el token es del bot @panaderia_sol_bot.',
        )
        .waitFor();
      await section.getByLabel('Nombre de usuario del bot').fill('panaderia_sol_bot');
      await section.getByRole('button', { name: 'Conectar Telegram' }).click();
      await section.getByTestId('telegram-health').getByText('Conectado · @panaderia_sol_bot').waitFor();
      expect(await section.getByTestId('telegram-health').textContent()).toContain('Recibe por long polling');
      expect(
        await section
          .getByRole('link', { name: 'Abrir @panaderia_sol_bot en Telegram' })
          .getAttribute('href'),
      ).toBe('https://t.me/panaderia_sol_bot');
      await page.getByTestId('telegram-status').getByText('Telegram conectado').waitFor();
      // The bot really answers a follower now.
      await telegram.sendText(bot.token, { id: 11 }, 'hola');
      await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1);
      expect(await seriousViolations(page)).toEqual([]);
      await shoot(page, 'telegram-connected');

      await page.getByTestId('telegram-status').click();
      const modal = page.getByRole('dialog', { name: 'Telegram' });
      await modal.getByRole('button', { name: 'Desconectar' }).click();
      await page.getByText('Bot de Telegram desconectado.').first().waitFor();
      await page.getByTestId('telegram-status').getByText('Telegram no conectado').waitFor();
      await modal.getByLabel('Token del bot').waitFor();
      expect(telegram.webhookOf(bot.token)).toBeNull();
      await context.close();
    });

    it('shows the lack-of-days panel instead of the form at 0 days, and the warning at 10 days or fewer', async () => {
      const broke = await ownerPage('tg-sin-dias@example.com', -2);
      await broke.page.goto(`${base}/configure`);
      await broke.page.getByText('Bot desconectado por falta de días').waitFor();
      expect(await broke.page.getByTestId('telegram-connect').getByLabel('Token del bot').count()).toBe(0);
      await shoot(broke.page, 'telegram-no-days');
      await broke.context.close();

      const soon = await ownerPage('tg-pocos-dias@example.com', 5);
      await soon.page.goto(`${base}/configure`);
      await soon.page
        .getByText(
          'Te quedan 5 días: cuando se acaben, tu bot de Telegram se desconectará. Renueva para evitarlo.',
        )
        .waitFor();
      await soon.context.close();
    });
  },
);
