/**
 * The sign-in screens in a real browser (Debian's Chromium driven by playwright-core): register,
 * open the confirmation link from the outbox, land on /main, sign out, sign back in; a guarded URL
 * opened signed-out comes back after sign-in; Google's button stays hidden without Google; the
 * language selector switches the screen. Screenshots of each auth screen at 1280 and 375 px wide
 * go to test-results/screenshots/.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium } from './helpers/chromium.ts';
import { dialectsOf } from './helpers/db.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT).each(dialectsOf(import.meta.url))(
  'sign-in screens in Chromium on %s',
  (kind) => {
    let app: TestApp;
    let base: string;
    let browser: Browser;

    /** The link of the newest outbox mail to `to`. */
    const outboxLink = (to: string): string => {
      const dir = join(app.dataDir, 'outbox');
      const files = readdirSync(dir)
        .filter((f) => f.includes(to.replace(/[^a-z0-9@._-]/gi, '_')))
        .sort();
      const raw = readFileSync(join(dir, files.at(-1)!), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '=');
      const link = raw.match(/https?:\/\/[^\s"<]+/)?.[0];
      if (!link) throw new Error(`no link in the outbox mail to ${to}`);
      return link;
    };

    const shoot = async (page: Page, name: string) => {
      for (const width of [1280, 375]) {
        await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
        await page.screenshot({ path: join(SHOTS, `${name}-${width}-${kind}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
    };

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      app = await createTestApp(kind);
      const http = await app.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('registers, confirms by the outbox link, lands on /main, signs out and back in', async () => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`${base}/register`);
      await page.getByRole('heading', { name: 'Crear cuenta' }).waitFor();
      await shoot(page, 'register');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Correo electrónico').fill('nueva@example.com');
      await page.getByLabel('Contraseña', { exact: true }).fill('clave-segura-1');
      await page.getByLabel('Confirmar contraseña').fill('clave-distinta-1');
      await page.getByRole('button', { name: 'Registrarme' }).click();
      await page.getByText('Las contraseñas no coinciden').waitFor();
      await page.getByLabel('Confirmar contraseña').fill('clave-segura-1');
      await page.getByRole('button', { name: 'Registrarme' }).click();
      await page.getByText('Revisa tu correo', { exact: true }).waitFor();
      await shoot(page, 'register-check-email');

      await page.goto(outboxLink('nueva@example.com'));
      await page.waitForURL(`${base}/main`);
      await page.getByRole('heading', { name: '¡Hola, nueva!' }).waitFor();
      expect(await page.getByTestId('days-remaining').textContent()).toBe('30');
      // A new owner sees no bot, not anyone else's.
      await page.getByText('Aún no has configurado tu bot.').waitFor();
      await shoot(page, 'main');

      await page.getByText('nueva', { exact: true }).click();
      await page.getByRole('button', { name: 'Cerrar sesión' }).click();
      await page.waitForURL(`${base}/login`);
      await page.getByLabel('Correo electrónico').fill('nueva@example.com');
      await page.getByLabel('Contraseña').fill('clave-segura-1');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${base}/main`);
      await page.getByRole('heading', { name: '¡Hola, nueva!' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/main');
      await page.close();
    });

    it('sends a signed-out visitor of a guarded page to /login and back there after sign-in', async () => {
      const owner = await app.owner('vuelta@example.com');
      const http = await app.http();
      await http.inject({
        method: 'POST',
        url: '/api/save-chatbot',
        headers: { authorization: `Bearer ${owner.token}` },
        payload: { business_name: 'Vuelta Bar', business_description: 'Bar de tapas.' },
      });
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`${base}/main`);
      await page.waitForURL(/\/login\?redirect=/);
      expect(await page.getByRole('button', { name: 'Continuar con Google' }).count()).toBe(0);
      await shoot(page, 'login');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Correo electrónico').fill('vuelta@example.com');
      await page.getByLabel('Contraseña').fill('mal-clave-123');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.getByText('No se pudo iniciar sesión. Por favor, revisa el usuario y contraseña.').waitFor();
      await shoot(page, 'login-error');
      await page.getByLabel('Contraseña').fill('contraseña-segura');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${base}/main`);
      // This owner has a bot and sees it.
      await page.getByTestId('my-bot').getByText('Vuelta Bar').waitFor();
      expect(new URL(page.url()).pathname).toBe('/main');
      await page.close();
    });

    it('shows the callback messages, the reset and update screens, and switches language', async () => {
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      await page.goto(`${base}/auth/callback?error=TOKEN_EXPIRED`);
      await page.waitForURL(`${base}/login?msg=link-expirado`);
      await page.getByText('El enlace ha caducado. Pide uno nuevo para continuar.').waitFor();
      await page.goto(`${base}/update-password?error=INVALID_TOKEN`);
      await page.waitForURL(`${base}/login?msg=error-recovery`);
      await page.goto(`${base}/update-password`);
      await page.waitForURL(`${base}/login`);

      await page.goto(`${base}/reset-password`);
      await page.getByRole('button', { name: 'Enviar enlace de restablecimiento' }).click();
      await page.getByText('Por favor, introduce tu correo electrónico').waitFor();
      await shoot(page, 'reset-password');
      expect(await seriousViolations(page)).toEqual([]);
      await page.goto(`${base}/update-password?token=abc`);
      await page.getByRole('button', { name: 'Guardar contraseña' }).click();
      await page.getByText('Por favor, completa todos los campos').waitFor();
      await shoot(page, 'update-password');
      expect(await seriousViolations(page)).toEqual([]);

      await page.goto(`${base}/login`);
      await page.getByLabel('Idioma').selectOption('en');
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      expect(
        await page.evaluate(() =>
          (
            globalThis as unknown as { localStorage: { getItem(k: string): string | null } }
          ).localStorage.getItem('app-language'),
        ),
      ).toBe('en');
      await page.reload();
      await page.getByRole('heading', { name: 'Sign in' }).waitFor();
      await shoot(page, 'login-en');
      await page.close();
    });
    it('returns to the page asked for after signing in, and sends an unknown path to the home page', async () => {
      await app.owner(`vuelta-${kind}@example.com`);
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${base}/configure`);
      await page.waitForURL(/\/login\?redirect=/);
      await page.getByLabel('Correo electrónico').fill(`vuelta-${kind}@example.com`);
      await page.getByLabel('Contraseña').fill('contraseña-segura');
      await page.getByRole('button', { name: 'Entrar' }).click();
      await page.waitForURL(`${base}/configure`);
      await page.waitForLoadState('networkidle');
      expect(new URL(page.url()).pathname).toBe('/configure');

      // Issue 29 (departing from spec 001 §2's redirect home): an unknown path answers 404 with the
      // "not found" page, which links the home page.
      const unknown = await page.goto(`${base}/blog`);
      expect(unknown?.status()).toBe(404);
      await page.locator('main a[href="/"]').click();
      await page.waitForURL(`${base}/`);
      await page.getByRole('heading', { level: 1, name: /Tu negocio, atendido por una IA/ }).waitFor();
      await page.close();
    });
  },
);
