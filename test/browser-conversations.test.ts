/**
 * Issue 14's followers' screen in Chromium, on a real Charla (PGlite) listening on a port, with the
 * demo seeded and its Telegram bot on the Bot API emulator: a follower's Telegram message appears
 * live on /usuarios-conversaciones (no reload), the owner answers from the screen and the follower
 * gets it, the bot stays quiet ("Bot pausado") for the follower's next message, and the screen
 * works on a 390 px phone (issue 27 §4): no sideways scroll with a 500-character message in the
 * list, the reply box in view, the phone link and the broadcast behind buttons. Screenshots at 1280
 * and 390 px; axe finds nothing serious.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_EMAIL, seedDemo } from '../cli/seed.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, FAKE_MICROPHONE_ARGS, launchChromium, signInAs } from './helpers/chromium.ts';
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
    let botId: string;

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
      browser = await launchChromium(FAKE_MICROPHONE_ARGS);
      botId = demo.bot.id;
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

      await telegram.sendText(
        tgToken,
        { id: 4321, username: 'lucia_m', first_name: 'Lucía' },
        '¿Tenéis mesa para esta noche?',
      );
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
      await telegram.sendText(
        tgToken,
        { id: 4321, username: 'lucia_m', first_name: 'Lucía' },
        '¡Genial, gracias!',
      );
      await log.getByText('¡Genial, gracias!').waitFor();
      await new Promise((r) => setTimeout(r, 800));
      expect(replies(4321)).toHaveLength(2);
      await page.screenshot({ path: join(SHOTS, 'conversations-1280.png') });
      expect(await seriousViolations(page)).toEqual([]);

      // Resume: the bot answers the next message again.
      await page.getByRole('switch', { name: 'Bot pausado' }).click();
      await expect.poll(() => page.getByRole('switch', { name: 'Bot pausado' }).isChecked()).toBe(false);
      await telegram.sendText(
        tgToken,
        { id: 4321, username: 'lucia_m', first_name: 'Lucía' },
        '¿A qué hora abrís el sábado?',
      );
      await telegram.waitFor(() => replies(4321).length === 3);
      await context.close();
    });

    it('broadcasts to every Telegram follower with live progress, and sends a robot voice note from the recorder', async () => {
      // 80 more Telegram followers: the broadcast takes a few seconds at Telegram's pace.
      await app.store.db
        .insertInto('followers')
        .values(
          Array.from({ length: 80 }, (_, i) => ({
            chatbot_id: botId,
            channel: 'telegram',
            external_id: String(9000 + i),
            username: `vecino${i}`,
          })),
        )
        .execute();
      const context = await browser.newContext({
        viewport: { width: 1280, height: 860 },
        locale: 'es-ES',
        permissions: ['microphone'],
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      page.on('dialog', (d) => void d.accept());
      await signInAs(page, base, DEMO_EMAIL);
      await page.goto(`${base}/usuarios-conversaciones`);

      // Nothing to send: the spec's alert.
      await page.getByRole('button', { name: 'Enviar a todos' }).click();
      await page.getByRole('alert').getByText('Escribe un texto o selecciona un archivo').waitFor();

      await page
        .getByRole('textbox', { name: 'Mensaje para todos tus seguidores' })
        .fill('¡Hoy, cocido madrileño!');
      await page.getByRole('button', { name: 'Enviar a todos' }).click();
      // Issue 27 §5: a real dialog with the audience per channel, not the browser's confirm().
      await page
        .getByRole('dialog', { name: '¿Enviar esta difusión?' })
        .getByRole('button', { name: 'Enviar a 81' })
        .click();
      const progress = page.getByRole('progressbar', { name: 'Progreso de la difusión' });
      await progress.waitFor();
      await page
        .getByText(/de 81 enviados/)
        .first()
        .waitFor();
      await page.screenshot({ path: join(SHOTS, 'broadcast-progress-1280.png') });
      expect(await seriousViolations(page)).toEqual([]);
      await progress.waitFor({ state: 'detached', timeout: 30_000 });
      await page.getByText('Historial (1 difusión)').click();
      await page.getByText(/Terminada · 81 de 81 enviados/).waitFor();
      const got = telegram
        .callsOf(tgToken, 'sendMessage')
        .filter((c) => c.params.text === '¡Hoy, cocido madrileño!');
      expect(new Set(got.map((c) => String(c.params.chat_id))).size).toBe(81);

      // The recorder: Chromium's fake microphone, the robot effect, heard, then sent to Lucía.
      await page.getByRole('button', { name: /lucia_m/ }).click();
      await page.getByRole('button', { name: 'Grabar una nota de voz' }).click();
      const recorder = page.getByRole('region', { name: 'Nota de voz' });
      await recorder.getByLabel('Efecto de voz').selectOption('robot');
      await recorder.getByRole('button', { name: /Grabar/ }).click();
      await recorder.getByText(/Grabando…/).waitFor();
      await new Promise((r) => setTimeout(r, 1500));
      await recorder.getByRole('button', { name: /Detener/ }).click();
      await recorder.locator('audio').waitFor({ timeout: 20_000 });
      await page.screenshot({ path: join(SHOTS, 'recorder-processed-1280.png') });
      const before = telegram.callsOf(tgToken, 'sendVoice').length;
      await recorder.getByRole('button', { name: 'Enviar a Lucía' }).click();
      await telegram.waitFor(() => telegram.callsOf(tgToken, 'sendVoice').length > before);
      const note = telegram.callsOf(tgToken, 'sendVoice').at(-1)!;
      expect(String(note.params.chat_id)).toBe('4321');
      expect(Object.values(note.files)[0]!.bytes.subarray(0, 4).toString()).toBe('OggS');
      await page.getByRole('log', { name: 'Conversación' }).getByText('🎤').waitFor();
      await context.close();
    });

    it('fits a 390 px phone: no sideways scroll with a 500-character message, the reply box in view', async () => {
      const long = `${'Quería preguntar por la carta de alérgenos y los menús de grupo '.repeat(8)}`.slice(
        0,
        500,
      );
      await telegram.sendText(tgToken, { id: 5555, username: 'marta_larga' }, long);
      await telegram.waitFor(() => replies(5555).length === 1);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 }, locale: 'es-ES' });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const scrollWidth = () => page.evaluate<number>('document.scrollingElement.scrollWidth');
      await signInAs(page, base, DEMO_EMAIL);
      await page.goto(`${base}/usuarios-conversaciones`);
      await page.getByRole('button', { name: /marta_larga/ }).waitFor();
      expect(await scrollWidth()).toBeLessThanOrEqual(390);
      // The phone link and the broadcast wait behind their buttons.
      expect(await page.getByRole('button', { name: 'Enviar a todos' }).isVisible()).toBe(false);
      await page.screenshot({ path: join(SHOTS, 'conversations-list-390.png') });
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('button', { name: /marta_larga/ }).click();
      const log = page.getByRole('log', { name: 'Conversación' });
      await log.getByText(long.slice(0, 40), { exact: false }).waitFor();
      expect(await page.getByRole('button', { name: /marta_larga/ }).isVisible()).toBe(false);
      expect(await scrollWidth()).toBeLessThanOrEqual(390);
      const box = page.getByRole('textbox', { name: 'Tu respuesta' });
      await expect.poll(() => box.boundingBox().then((b) => b!.y + b!.height)).toBeLessThanOrEqual(844);
      expect(await box.boundingBox().then((b) => b!.y)).toBeGreaterThanOrEqual(0);
      // Scrolled back to the top of the page, the reply box still sits at the bottom of the screen.
      await page.evaluate('window.scrollTo(0, 0)');
      expect(await box.boundingBox().then((b) => b!.y + b!.height)).toBeLessThanOrEqual(844);
      await page.screenshot({ path: join(SHOTS, 'conversations-390.png') });
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole('button', { name: 'Ver seguidores' }).click();
      await page.getByRole('button', { name: /lucia_m/ }).waitFor();
      // Read: her unread count is gone.
      await expect
        .poll(() => page.getByRole('button', { name: /marta_larga/ }).textContent())
        .not.toMatch(/sin leer/);

      // Answer from the phone: the one-time deep link, opened in the owner's Telegram, links it.
      await page.getByRole('button', { name: /Responde desde tu móvil/ }).click();
      await page.getByRole('button', { name: 'Vincular mi Telegram' }).click();
      const href = await page
        .getByRole('link', { name: 'Abrir Telegram y pulsar «Iniciar»' })
        .getAttribute('href');
      const code = /\?start=(own-[\w-]+)$/.exec(href ?? '')?.[1];
      expect(code, href ?? '').toBeTruthy();
      await telegram.sendText(tgToken, { id: 7777, username: 'pepe_dueno' }, `/start ${code}`);
      await page.getByText('✓ Tu Telegram está vinculado', { exact: false }).waitFor();
      await page.screenshot({ path: join(SHOTS, 'conversations-phone-390.png') });
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  },
);
