/**
 * /gestion in Chromium (issue 11), on a real Charla (PGlite) listening on a port, with Stripe on the
 * local wire-format server (test/servers/stripe.ts):
 * - in Spanish: reached from the /main card; days, badge, account and the Telegram warning; the
 *   custom plan's live total and its bounds ("Necesitas al menos 1 día", the monthly plan over 21);
 *   a coupon typed in lowercase, uppercased and applied; paying 7 days goes to Stripe's page (630 eur)
 *   and, once the signed webhook arrives, the return to /gestion shows the result and the days;
 * - an owner whose subscription renews sees "Suscripción Activa" and cancels the renewal;
 * - in English on a server without Stripe: 0 days, "No days", and the plan cards saying to ask the
 *   operator;
 * - screenshots at 1280 and 375 px (test-results/screenshots/), no sideways scroll, no serious or
 *   critical axe violation.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURES } from '../dashboard/src/lib/features.ts';
import { createCoupon } from '../plugins/billing/coupons.ts';
import { formatEur } from '../plugins/billing/plans.ts';
import { billingDb } from '../plugins/billing/queries.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { seriousViolations } from './helpers/axe.ts';
import { CHROMIUM_PATH, launchChromium, signInAs } from './helpers/chromium.ts';
import { type FakeStripe, startFakeStripe } from './servers/stripe.ts';

const SHOTS = new URL('../test-results/screenshots/', import.meta.url).pathname;
const DASHBOARD_BUILT = existsSync(new URL('../dist/dashboard/index.html', import.meta.url));
const DAY = 86_400_000;
// biome-ignore lint/suspicious/noExplicitAny: the locale files' shape, read as JSON
type Texts = any;
const locale = (code: string): Texts =>
  JSON.parse(readFileSync(new URL(`../dashboard/src/i18n/locales/${code}.json`, import.meta.url), 'utf8'));
const es = locale('es');
const G = es.gestion;
const GE = locale('en').gestion;

/** Runs a JavaScript expression in the page (the tsconfig has no DOM library). */
const inPage = <T = unknown>(page: Page, expression: string) => page.evaluate(expression) as Promise<T>;

describe.skipIf(!existsSync(CHROMIUM_PATH) || !DASHBOARD_BUILT)('/gestion in Chromium', () => {
  let app: TestApp;
  let plain: TestApp;
  let stripe: FakeStripe;
  let base: string;
  let plainBase: string;
  let browser: Browser;

  /** Full-page screenshots at 1280 and 375 px; returns the page's width at each (wider = sideways scroll). */
  const shoot = async (page: Page, name: string) => {
    const widths: Record<number, number> = {};
    for (const width of [1280, 375]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 800 });
      await page.waitForTimeout(150);
      widths[width] = await inPage<number>(page, 'document.documentElement.scrollWidth');
      await page.screenshot({ path: join(SHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    return widths;
  };
  const setDays = async (target: TestApp, userId: string, days: number | null) => {
    const expires = days === null ? null : new Date(Date.now() + days * DAY);
    await target.store.db
      .insertInto('user_profiles')
      .values({ user_id: userId, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
  };
  /** Delivers a signed Stripe event to the app, as Stripe would over the network. */
  const deliver = async (type: string, object: object) => {
    const body = JSON.stringify(stripe.event(type, object));
    const res = await fetch(`${base}/api/stripe/webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': stripe.sign(body) },
      body,
    });
    expect(res.status).toBe(200);
  };
  const newPage = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { context, page };
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    stripe = await startFakeStripe();
    app = await createTestApp('pglite', {
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
      },
    });
    const http = await app.http();
    await http.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(http.server.address() as AddressInfo).port}`;
    plain = await createTestApp('pglite');
    const plainHttp = await plain.http();
    await plainHttp.listen({ port: 0, host: '127.0.0.1' });
    plainBase = `http://127.0.0.1:${(plainHttp.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await plain?.close();
    await stripe?.close();
  });

  it('in Spanish: days, warning, the custom plan’s total and bounds, a coupon, and a payment of 7 days', async () => {
    const owner = await app.owner('lola@example.com');
    await setDays(app, owner.id, 5);
    await createCoupon(billingDb(app.store.db), {
      code: 'BIENVENIDA',
      days: 10,
      maxRedemptions: null,
      validUntil: null,
      createdBy: 'test',
    });
    const { context, page } = await newPage();
    await signInAs(page, base, 'lola@example.com');

    // The /main card leads here.
    await page.getByRole('link', { name: new RegExp(es.main.cards.gestion.title) }).click();
    await page.waitForURL(`${base}/gestion`);
    await page.getByRole('heading', { name: G.title }).waitFor();
    expect(await page.getByTestId('gestion-days').textContent()).toBe('5');
    expect(await page.getByTestId('days-badge').textContent()).toBe('Días Restantes');
    expect(await page.getByTestId('account-email').textContent()).toBe('lola@example.com');
    expect(await page.getByTestId('account-state').textContent()).toBe(G.account.states.active);
    expect(await page.getByTestId('telegram-warning').textContent()).toContain('5');
    await page.getByText('Más popular', { exact: true }).waitFor();
    // The directory popup button shows once /facebots exists (dashboard/src/lib/features.ts).
    const directory = page.getByRole('link', { name: /Ver Facebots/ });
    if (FEATURES.facebots) await directory.waitFor();
    else expect(await directory.count()).toBe(0);

    // The custom plan: 7 days by default, the live total, and the bounds.
    const total = page.getByTestId('custom-total');
    const days = page.getByLabel(G.plans.custom.daysLabel);
    expect(await total.textContent()).toBe(`Total (7 × ${formatEur(90, 'es')}): ${formatEur(630, 'es')}`);
    await days.fill('3');
    expect(await total.textContent()).toContain(formatEur(270, 'es'));
    await days.fill('0');
    await page.getByText('Necesitas al menos 1 día', { exact: true }).waitFor();
    const payButton = page.getByTestId('plan-custom').getByRole('button');
    expect(await payButton.isDisabled()).toBe(true);
    await days.fill('22');
    await page.getByText(`35 días por ${formatEur(1999, 'es')}`, { exact: false }).waitFor();
    expect(await payButton.isDisabled()).toBe(true);
    await days.fill('7');
    await page.getByRole('button', { name: `Pagar ${formatEur(630, 'es')}` }).waitFor();

    // A coupon typed in lowercase is uppercased and applied; an unknown one is "Cupón inválido".
    const coupon = page.getByLabel(G.coupon.label);
    const apply = page.getByRole('button', { name: G.coupon.apply });
    expect(await apply.isDisabled()).toBe(true);
    await coupon.fill('nada');
    await apply.click();
    await page.getByText('Cupón inválido', { exact: true }).waitFor();
    await coupon.fill('bienvenida');
    expect(await coupon.inputValue()).toBe('BIENVENIDA');
    await apply.click();
    await page.getByText('Cupón aplicado. ¡Disfruta de tus días extra!', { exact: true }).waitFor();
    await page.getByTestId('gestion-days').getByText('15', { exact: true }).waitFor();
    await page.getByText('Cupón BIENVENIDA').waitFor();
    await page.getByText(G.history.trial).waitFor();

    const widths = await shoot(page, 'gestion-es');
    expect(widths[1280]).toBeLessThanOrEqual(1280);
    expect(widths[375]).toBeLessThanOrEqual(375);
    expect(await seriousViolations(page)).toEqual([]);

    // Paying 7 days: Stripe's page (the local server's), then the signed webhook, then back.
    await page.getByRole('button', { name: `Pagar ${formatEur(630, 'es')}` }).click();
    await page.waitForURL(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    expect(await page.getByTestId('amount').textContent()).toBe('630 eur');
    const sessionId = page.url().split('/').at(-1)!;
    const session = stripe.complete(sessionId);
    await deliver('checkout.session.completed', session);
    await page.goto(session.success_url.replace('{CHECKOUT_SESSION_ID}', sessionId));
    await page.getByText(G.payment.ok).waitFor();
    await page.getByTestId('gestion-days').getByText('22', { exact: true }).waitFor();
    await page.getByText(G.history.custom).waitFor();
    await shoot(page, 'gestion-es-paid');
    await context.close();
  });

  it('shows "Suscripción Activa" for a renewing subscription and cancels the renewal', async () => {
    const owner = await app.owner('mensual@example.com');
    const res = await (await app.http()).inject({
      method: 'POST',
      url: '/api/create-checkout-session',
      headers: { authorization: `Bearer ${owner.token}` },
      payload: { plan: 'monthly_35' },
    });
    const session = stripe.complete((res.json() as { url: string }).url.split('/').at(-1)!);
    await deliver('checkout.session.completed', session);

    const { context, page } = await newPage();
    await signInAs(page, base, 'mensual@example.com');
    await page.goto(`${base}/gestion`);
    await page.getByRole('heading', { name: 'Suscripción Activa' }).waitFor();
    expect(await page.getByTestId('telegram-warning').count()).toBe(0);
    expect(await page.getByLabel(G.coupon.label).count()).toBe(0);
    expect(await page.getByRole('button', { name: G.plans.monthly.current }).isDisabled()).toBe(true);
    await shoot(page, 'gestion-es-subscribed');
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: G.subscription.cancel }).click();
    await page.getByTestId('renewal-cancelled').waitFor();
    await page.getByLabel(G.coupon.label).waitFor();
    expect(stripe.subscriptions.get(session.subscription!)!.cancel_at_period_end).toBe(true);
    await context.close();
  });

  it('in English, on a server without Stripe: no days, and the plan cards say to ask the operator', async () => {
    const owner = await plain.owner('green@example.com');
    await setDays(plain, owner.id, -2);
    const { context, page } = await newPage();
    await signInAs(page, plainBase, 'green@example.com');
    await inPage(page, `localStorage.setItem('app-language', 'en')`);
    await page.goto(`${plainBase}/gestion`);
    await page.getByRole('heading', { name: GE.title }).waitFor();
    expect(await page.getByTestId('gestion-days').textContent()).toBe('0');
    expect(await page.getByTestId('days-badge').textContent()).toBe(GE.days.none);
    expect(await page.getByTestId('payments-off').textContent()).toBe(GE.plans.paymentsOff);
    expect(await page.getByTestId('telegram-warning').textContent()).toBe(GE.telegramOff);
    await page.getByText(GE.plans.popular, { exact: true }).waitFor();
    expect(await page.getByTestId('plan-custom').getByRole('button').count()).toBe(0);
    expect(await page.getByTestId('custom-total').textContent()).toBe(
      `Total (7 × ${formatEur(90, 'en')}): ${formatEur(630, 'en')}`,
    );
    const widths = await shoot(page, 'gestion-en-no-stripe');
    expect(widths[375]).toBeLessThanOrEqual(375);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
