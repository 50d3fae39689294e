/**
 * Operator work without downtime on embedded PGlite (issue 26 §6): while a real `charla serve` holds
 * the data dir, `charla coupons create|list` and `charla owners grant-days|list` succeed by asking the
 * server's operator API, and their effect is visible through the server. The operator API answers
 * only the operator token or an operator owner's session, and refuses a cookie request from another
 * origin. The dashboard's /admin shows owners, coupons, bots and errors to the operator at 390 and
 * 1280 px.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runningServer } from '../cli/remote.ts';
import type { CharlaConfig } from '../engine/config.ts';
import { OPERATOR_HEADER, operatorToken } from '../engine/operator.ts';
import { SecretBox } from '../engine/secrets.ts';
import {
  bundleLikeNpmStart,
  type CharlaServer,
  charlaEnv,
  runCharla,
  serveCharla,
} from './helpers/charla-process.ts';
import { launchChromium } from './helpers/chromium.ts';

const PASSWORD = 'contraseña-segura';
const OPERATOR = 'jefa@example.com';
const OWNER = 'lola@example.com';

describe('operator work while charla serve runs on PGlite', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'charla-operator-'));
  const env = charlaEnv({ CHARLA_DATA_DIR: dataDir, STRIPE_SECRET_KEY: '' });
  const charla = (...args: string[]) => runCharla(args, env);
  let server: CharlaServer;
  let token: string;

  /** Signs in by e-mail and returns the session cookie. */
  async function signIn(email: string): Promise<string> {
    const res = await fetch(`${server.url}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    return res.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
  }
  const daysOf = async (cookie: string) =>
    (
      (await (await fetch(`${server.url}/api/me`, { headers: { cookie } })).json()) as {
        owner: { daysRemaining: number; operator: boolean };
      }
    ).owner;

  beforeAll(async () => {
    await bundleLikeNpmStart();
    for (const [email, extra] of [
      [OPERATOR, ['--operator']],
      [OWNER, []],
    ] as const) {
      const made = charla('owners', 'create', '--email', email, '--password', PASSWORD, ...extra);
      expect(made.code, made.stderr).toBe(0);
    }
    const bot = charla(
      'bots',
      'create',
      '--owner',
      OWNER,
      '--name',
      'Bar Lola',
      '--description',
      'Tapas y vermut.',
    );
    expect(bot.code, bot.stderr).toBe(0);
    server = await serveCharla(env);
    token = operatorToken(new SecretBox(readFileSync(join(dataDir, 'secret'), 'utf8').trim()));
  }, 120_000);
  afterAll(async () => {
    if (server?.child.exitCode === null) {
      const exited = new Promise((r) => server.child.once('exit', r));
      server.child.kill('SIGTERM');
      await exited;
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('runs coupons create|list and owners grant-days|list through the server, with the same output', async () => {
    const lola = await signIn(OWNER);
    const before = (await daysOf(lola)).daysRemaining;

    const created = charla('coupons', 'create', 'verano', '--days', '7', '--max', '2', '--json');
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ code: 'VERANO', days: 7, max_redemptions: 2 });
    const again = charla('coupons', 'create', 'VERANO', '--days', '1');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('already exists');

    const listed = charla('coupons', 'list', '--json');
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ code: 'VERANO', days: 7, redeemed: 0, created_by: 'cli' }),
    ]);
    expect(charla('coupons', 'list').stdout).toMatch(/VERANO\s+7 day\(s\)\s+used 0\/2/);

    const granted = charla('owners', 'grant-days', OWNER, '5');
    expect(granted.code, granted.stderr).toBe(0);
    expect(granted.stdout).toContain(`Added 5 day(s) to ${OWNER}: ${before + 5} day(s) left`);
    expect((await daysOf(lola)).daysRemaining).toBe(before + 5);
    expect(charla('owners', 'grant-days', 'nadie@example.com', '5').code).toBe(3);

    const owners = charla('owners', 'list', '--json');
    expect(owners.code, owners.stderr).toBe(0);
    expect(JSON.parse(owners.stdout).map((o: { email: string }) => o.email)).toEqual([OPERATOR, OWNER]);
    expect(charla('owners', 'list').stdout).toContain(OWNER);

    // The coupon works for the owner (the server's own route).
    const redeem = await fetch(`${server.url}/api/redeem-coupon`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: lola, origin: server.url },
      body: JSON.stringify({ couponCode: 'verano' }),
    });
    expect(redeem.status).toBe(200);
    expect((await daysOf(lola)).daysRemaining).toBe(before + 12);
  }, 120_000);

  it('finds the server through server.json only on PGlite', () => {
    const config = { dataDir, databaseUrl: undefined, secret: undefined } as unknown as CharlaConfig;
    expect(runningServer(config)).toEqual({ url: server.url, headers: { [OPERATOR_HEADER]: token } });
    // On PostgreSQL every command opens the database itself.
    expect(runningServer({ ...config, databaseUrl: 'postgres://x@127.0.0.1/y' })).toBeNull();
  });

  it('answers only the operator token or an operator’s session, from the app’s origin', async () => {
    const get = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${server.url}${path}`, { headers });
    expect((await get('/api/operator/owners')).status).toBe(401);
    expect((await get('/api/operator/owners', { [OPERATOR_HEADER]: 'x'.repeat(43) })).status).toBe(403);
    const withToken = await get('/api/operator/owners', { [OPERATOR_HEADER]: token });
    expect(withToken.status).toBe(200);
    expect(await withToken.json()).toEqual(
      expect.arrayContaining([expect.objectContaining({ email: OWNER, status: 'active', bots: 1 })]),
    );

    const lola = await signIn(OWNER);
    expect((await daysOf(lola)).operator).toBe(false);
    for (const path of [
      '/api/operator/owners',
      '/api/operator/coupons',
      '/api/operator/bots',
      '/api/operator/errors',
    ])
      expect((await get(path, { cookie: lola })).status, path).toBe(403);

    const jefa = await signIn(OPERATOR);
    expect((await daysOf(jefa)).operator).toBe(true);
    expect((await get('/api/operator/errors', { cookie: jefa })).status).toBe(200);
    const bots = await get('/api/operator/bots', { cookie: jefa });
    expect(bots.status).toBe(200);
    expect(await bots.json()).toEqual([
      expect.objectContaining({
        name: 'Bar Lola',
        owner: OWNER,
        channels: expect.arrayContaining([
          expect.objectContaining({ channel: 'telegram', state: 'disconnected' }),
        ]),
      }),
    ]);
    const grant = (origin: string) =>
      fetch(`${server.url}/api/operator/grant-days`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: jefa, origin },
        body: JSON.stringify({ email: OWNER, days: 1, note: 'soporte' }),
      });
    const ok = await grant(server.url);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ owner: OWNER, days: 1 });
    expect((await grant('https://evil.example')).status).toBe(403);
    // Malformed input is the client's error, in words.
    const bad = await fetch(`${server.url}/api/operator/coupons`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [OPERATOR_HEADER]: token },
      body: JSON.stringify({ code: 'no vale', days: 0 }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toMatch(/Datos no válidos/);
  }, 30_000);

  describe('the /admin screen', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await launchChromium();
    });
    afterAll(async () => browser?.close());

    it.each([390, 1280])(
      'shows owners, coupons, bots and errors to the operator at %i px',
      async (width) => {
        const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'es-ES' });
        const page = await context.newPage();
        await page.goto(`${server.url}/login`);
        await page.getByLabel('Correo electrónico').fill(OPERATOR);
        await page.getByLabel('Contraseña').fill(PASSWORD);
        await page.getByRole('button', { name: 'Entrar' }).click();
        await page.waitForURL(/\/(main|configure)/);
        await page.getByRole('link', { name: 'Operador' }).first().click();
        await page.waitForURL(`${server.url}/admin`);
        await page.getByTestId('admin-owners').getByText(OWNER).waitFor();
        await page.getByTestId('admin-coupons').getByText('VERANO').waitFor();
        await page.getByTestId('admin-bots').getByText('Bar Lola').waitFor();
        // Grant a day from the form.
        await page.getByLabel('Correo del dueño').fill(OWNER);
        await page.getByLabel('Días', { exact: true }).fill('2');
        await page.getByRole('button', { name: 'Añadir días' }).click();
        await page.getByRole('status').filter({ hasText: 'día(s)' }).first().waitFor();
        const overflow = await page.evaluate('document.documentElement.scrollWidth - window.innerWidth');
        expect(overflow as number).toBeLessThanOrEqual(0);
        if (process.env.CHARLA_SCREENSHOTS)
          await page.screenshot({
            path: join(process.env.CHARLA_SCREENSHOTS, `admin-${width}.png`),
            fullPage: true,
          });
        await context.close();
      },
      30_000,
    );
  });
});
