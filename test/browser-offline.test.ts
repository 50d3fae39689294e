/**
 * Issue 10 §6 and §7 in Chromium, on a real Charla (PGlite) listening on a port, with the demo:
 * - with no LLM, the test chat on /main and the try-out chat on /charla-web show the "Respuestas sin
 *   IA" banner with its link to /ayuda/llm (issue 29: which tells an owner their operator can enable
 *   it; the IALanding never shows it), and
 *   the test chat answers "¿A qué hora abrís el sábado?" with the demo's opening hours;
 * - the IALanding hero shows the public description: the owner's field from /configure, or, empty,
 *   the description's first sentences without the behaviour instructions; the library cards show
 *   each file's context text, not its keywords;
 * - with an LLM configured (the local OpenAI-format server), none of the three shows the banner.
 */
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_BOT, DEMO_EMAIL, DEMO_FILES, seedDemo } from '../cli/seed.ts';
import { createTestApp, fakeLlm, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, openLanding, signInAs } from './helpers/chromium.ts';
import { type FakeOpenAi, startFakeOpenAi } from './servers/openai.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DEMO_SLUG = 'ialanding-el-pato-pepe';
const BANNER = 'Respuestas sin IA';

/** A listening test app with the demo seeded; the demo owner signs in with "contraseña-segura". */
async function demoServer(options: Parameters<typeof createTestApp>[1] = {}) {
  const app = await createTestApp('pglite', options);
  const http = await app.http();
  await http.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
  const demo = await seedDemo(app);
  await app.owner(DEMO_EMAIL);
  return { app, base, demo };
}

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('offline answers in Chromium', () => {
  let browser: Browser;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'es-ES' });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return page;
  };

  describe('with no LLM', () => {
    let app: TestApp;
    let base: string;
    let demoId: string;
    beforeAll(async () => {
      const server = await demoServer();
      ({ app, base } = server);
      demoId = server.demo.bot.id;
    });
    afterAll(async () => {
      await app?.close();
    });

    const expectBanner = async (scope: Locator) => {
      await scope.getByTestId('offline-banner').waitFor();
      expect(await scope.getByTestId('offline-banner').textContent()).toContain(BANNER);
      expect(await scope.getByTestId('offline-banner').getByRole('link').getAttribute('href')).toBe(
        '/ayuda/llm',
      );
    };

    it('the test chat says "Respuestas sin IA" and answers the hours from the description', async () => {
      const page = await newPage();
      await signInAs(page, base, DEMO_EMAIL);
      await page.getByRole('button', { name: 'Probar el chatbot' }).click();
      const chat = page.getByRole('region', { name: 'Chat de El Pato Pepe' });
      await expectBanner(chat);
      const box = chat.getByLabel('Escribe tu mensaje...');
      await box.fill('¿A qué hora abrís el sábado?');
      await box.press('Enter');
      await chat.getByText(/de martes a domingo, de 13:00 a 16:30 y de 20:00 a 23:30/).waitFor();
      expect(await chat.textContent()).not.toMatch(/menu, foto|palabra clave/);
      await page.screenshot({ path: join(SHOTS, 'offline-test-chat-1280.png') });
      expect(await seriousViolations(page)).toEqual([]);

      // The link explains how to connect an LLM.
      const help = page.waitForEvent('popup');
      await chat.getByRole('link', { name: 'Cómo activar la IA' }).click();
      const helpPage = await help;
      await helpPage.getByRole('heading', { name: 'Conecta una IA a Charla' }).waitFor();
      // Issue 29: an owner is told their operator can enable it, never the server's settings.
      expect(await helpPage.getByTestId('llm-owner-note').textContent()).toContain(
        'tu operador puede activarlo',
      );
      expect(await helpPage.getByText('OPENAI_BASE_URL=').count()).toBe(0);
      expect(await seriousViolations(helpPage)).toEqual([]);
      await page.context().close();
    });

    it('the /charla-web try-out chat says "Respuestas sin IA"', async () => {
      const page = await newPage();
      await signInAs(page, base, DEMO_EMAIL);
      await page.goto(`${base}/charla-web`);
      await page.getByRole('button', { name: 'Probar el bot web' }).click();
      await expectBanner(page.getByTestId('web-chat'));
      await page.context().close();
    });

    it('the IALanding shows the public description, files by context, and no operator banner', async () => {
      // A description that opens with instructions for the bot: the hero leaves them out.
      await app.store.db
        .updateTable('chatbots')
        .set({ business_description: `Atiende con cercanía y usa el tú. ${DEMO_BOT.business_description}` })
        .where('id', '=', demoId)
        .execute();
      app.engine.cache.invalidate(demoId);
      const page = await newPage();
      await openLanding(page, `${base}/ialanding/${DEMO_SLUG}`);
      const hero = page.getByTestId('ialanding-description');
      await hero.waitFor();
      const heroText = (await hero.textContent()) ?? '';
      expect(heroText.startsWith('Restaurante familiar de cocina española')).toBe(true);
      expect(heroText).not.toContain('Atiende');
      // Issue 29: operator text stays in the owner's dashboard, never on the IALanding.
      expect(await page.getByTestId('offline-banner').count()).toBe(0);
      expect(await page.locator('main').textContent()).not.toContain(BANNER);

      const labels = await page.getByTestId('ialanding-card-label').allTextContents();
      expect([...labels].sort()).toEqual(DEMO_FILES.map((f) => f.context).sort());
      for (const label of labels) expect(label).not.toMatch(/menu|foto ·|audio,/);
      // A card opens its file titled by its context too.
      await page.getByTestId('ialanding-card-label').filter({ hasText: 'Foto de la fachada' }).click();
      expect(await page.getByTestId('ialanding-content-title').textContent()).toContain('Foto de la fachada');
      await page.screenshot({ path: join(SHOTS, 'offline-ialanding-1280.png'), fullPage: true });
      expect(await seriousViolations(page)).toEqual([]);
      await page.context().close();
    });

    it('the owner writes a public description on /configure and the IALanding shows it', async () => {
      const page = await newPage();
      await signInAs(page, base, DEMO_EMAIL);
      await page.goto(`${base}/configure`);
      const field = page.getByLabel('Descripción pública (landing web)');
      await field.waitFor();
      expect(await field.inputValue()).toBe('');
      await field.fill('La mejor paella de Madrid, junto al estanque.');
      await page.getByRole('button', { name: 'Guardar' }).click();
      await expect
        .poll(
          async () =>
            (
              await app.store.db
                .selectFrom('chatbots')
                .select('public_description')
                .where('id', '=', demoId)
                .executeTakeFirstOrThrow()
            ).public_description,
        )
        .toBe('La mejor paella de Madrid, junto al estanque.');
      await openLanding(page, `${base}/ialanding/${DEMO_SLUG}`);
      await page.getByTestId('ialanding-description').waitFor();
      expect(await page.getByTestId('ialanding-description').textContent()).toBe(
        'La mejor paella de Madrid, junto al estanque.',
      );
      await page.context().close();
    });
  });

  describe('with an LLM', () => {
    let app: TestApp;
    let base: string;
    let llm: FakeOpenAi;
    beforeAll(async () => {
      llm = await startFakeOpenAi({ reply: () => ({ text: 'Abrimos a las 13:00.' }) });
      ({ app, base } = await demoServer({ llm: fakeLlm(llm.baseURL) }));
    });
    afterAll(async () => {
      await app?.close();
      await llm?.close();
    });

    it('no surface shows the banner', async () => {
      const page = await newPage();
      await signInAs(page, base, DEMO_EMAIL);
      await page.getByRole('button', { name: 'Probar el chatbot' }).click();
      const chat = page.getByRole('region', { name: 'Chat de El Pato Pepe' });
      await chat.getByText('¡Hola! Soy el asistente de El Pato Pepe. ¿En qué puedo ayudarte?').waitFor();
      const box = chat.getByLabel('Escribe tu mensaje...');
      await box.fill('¿A qué hora abrís el sábado?');
      await box.press('Enter');
      await chat.getByText('Abrimos a las 13:00.').waitFor();
      expect(await page.getByTestId('offline-banner').count()).toBe(0);

      await page.goto(`${base}/charla-web`);
      await page.getByRole('button', { name: 'Probar el bot web' }).click();
      const web = page.getByTestId('web-chat');
      await web.getByText('¡Hola! Soy el asistente de El Pato Pepe. ¿En qué puedo ayudarte?').waitFor();
      expect(await page.getByTestId('offline-banner').count()).toBe(0);

      await openLanding(page, `${base}/ialanding/${DEMO_SLUG}`);
      await page.getByTestId('ialanding-description').waitFor();
      expect(await page.getByTestId('offline-banner').count()).toBe(0);
      await page.context().close();
    });
  });
});
