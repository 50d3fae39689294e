/**
 * The owner's data on /gestion in Chromium (issue 26 §5), on a real Charla (PGlite) listening on a
 * port: "Descargar mis datos" downloads a ZIP; "Eliminar mi cuenta" opens a dialog (not the
 * browser's confirm) asking for the password; a wrong one is said in Spanish and deletes nothing,
 * the right one deletes the account and lands on /login with the message. Screenshots at 1280 and
 * 390 px (test-results/screenshots/), no sideways scroll, no serious or critical axe violation.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
// biome-ignore lint/suspicious/noExplicitAny: the locale file's shape, read as JSON
const es: any = JSON.parse(
  readFileSync(new URL('../dashboard/src/i18n/locales/es.json', import.meta.url), 'utf8'),
);
const D = es.gestion.data;

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)(
  'the owner’s data on /gestion in Chromium',
  () => {
    let app: TestApp;
    let base: string;
    let browser: Browser;

    /** Full-page screenshots at 1280 and 390 px; returns the page's width at each (wider = sideways scroll). */
    const shoot = async (page: Page, name: string) => {
      const widths: Record<number, number> = {};
      for (const width of [1280, 390]) {
        await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
        await page.waitForTimeout(150);
        widths[width] = await inPage<number>(page, 'document.documentElement.scrollWidth');
        await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 1280, height: 800 });
      return widths;
    };

    beforeAll(async () => {
      mkdirSync(SHOTS, { recursive: true });
      app = await createTestApp('pglite');
      const http = await app.http();
      await http.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
      browser = await launchChromium();
    });
    afterAll(async () => {
      await browser?.close();
      await app?.close();
    });

    it('downloads the data, then deletes the account after the password', async () => {
      const owner = await app.owner('marta@example.com');
      const context = await browser.newContext({
        viewport: { width: 1280, height: 800 },
        acceptDownloads: true,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      // No native dialog may open: a confirm() would be accepted here and fail the test.
      let nativeDialogs = 0;
      page.on('dialog', (d) => {
        nativeDialogs++;
        void d.dismiss();
      });
      await signInAs(page, base, 'marta@example.com');
      await page.goto(`${base}/gestion`);
      await page.getByRole('heading', { name: D.title }).waitFor();
      await page.getByRole('heading', { name: es.gestion.history.title }).waitFor();
      const widths = await shoot(page, 'account-data');
      expect(widths[1280]).toBeLessThanOrEqual(1280);
      expect(widths[390]).toBeLessThanOrEqual(390);
      expect(await seriousViolations(page)).toEqual([]);

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: D.download }).click(),
      ]);
      expect(download.suggestedFilename()).toMatch(/^charla-export-\d{4}-\d{2}-\d{2}\.zip$/);
      const zip = readFileSync((await download.path())!);
      expect(zip.subarray(0, 4).toString('hex')).toBe('504b0304');
      expect(zip.includes(Buffer.from('charla-export.json'))).toBe(true);

      await page.getByRole('button', { name: D.delete }).click();
      const dialog = page.getByRole('dialog', { name: D.dialogTitle });
      await dialog.waitFor();
      const confirm = dialog.getByRole('button', { name: D.confirm });
      expect(await confirm.isDisabled()).toBe(true);
      await dialog.getByLabel(D.password).fill('no-es-esta');
      await confirm.click();
      await dialog.getByText(D.errors.wrongPassword, { exact: true }).waitFor();
      await shoot(page, 'account-delete-dialog');
      expect(await seriousViolations(page)).toEqual([]);
      expect(
        await app.store.db.selectFrom('owners').where('id', '=', owner.id).select('id').executeTakeFirst(),
      ).toBeDefined();
      // Escape closes the dialog; nothing happened.
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });

      await page.getByRole('button', { name: D.delete }).click();
      await dialog.getByLabel(D.password).fill('contraseña-segura');
      await dialog.getByRole('button', { name: D.confirm }).click();
      await page.waitForURL(`${base}/login?msg=cuenta-eliminada`);
      await page.getByText(es.login.msg['cuenta-eliminada'], { exact: true }).waitFor();
      await shoot(page, 'account-deleted-login');
      expect(
        await app.store.db.selectFrom('owners').where('id', '=', owner.id).select('id').executeTakeFirst(),
      ).toBeUndefined();
      // The session is gone: the guarded page sends back to /login.
      await page.goto(`${base}/gestion`);
      await page.waitForURL(/\/login/);
      expect(nativeDialogs).toBe(0);
      await context.close();
    }, 90_000);
  },
);
