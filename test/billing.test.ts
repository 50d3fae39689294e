/**
 * Billing through a running Charla (issue 11), with the `stripe` SDK pointed at a local server
 * that speaks Stripe's wire format (test/servers/stripe.ts; no request leaves the machine):
 * - checkout sessions created with the right mode, amount, currency and metadata, for the
 *   session's owner only; the spec's error texts;
 * - webhooks signed with the SDK's `generateTestHeaderString`: a payment's days added once however
 *   often and by whichever events it is delivered; a tampered body refused with nothing stored;
 *   renewals; a deleted subscription keeps the days; cancelling the renewal;
 * - another owner can neither pay for, cancel, nor read this owner's billing;
 * - the story: a new owner whose trial ended pays for 7 days, sees 7 days, and their paused
 *   Telegram bot answers again.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingStatus } from '../plugins/billing/api.ts';
import { billingDb } from '../plugins/billing/queries.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';
import { type FakeEvent, type FakeStripe, startFakeStripe } from './servers/stripe.ts';
import { type FakeTelegram, startFakeTelegram } from './servers/telegram.ts';

const DAY = 86_400_000;

describe.each(dialectsOf(import.meta.url))('billing on %s', (kind) => {
  let stripe: FakeStripe;
  let telegram: FakeTelegram;
  let app: TestApp;

  const http = async () => app.http();
  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  /** Sets an owner's expiry `days` from now (negative: in the past). */
  const setDays = async (userId: string, days: number) => {
    const expires = new Date(Date.now() + days * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: userId, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
  };
  const status = async (token: string): Promise<BillingStatus> => {
    const res = await (await http()).inject({ method: 'GET', url: '/api/billing', headers: auth(token) });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const checkout = async (token: string, body: Record<string, unknown>) =>
    (await http()).inject({
      method: 'POST',
      url: '/api/create-checkout-session',
      headers: auth(token),
      payload: body,
    });
  /** Starts a checkout as the owner and returns the session Stripe (the fake) created. */
  const startCheckout = async (token: string, body: Record<string, unknown>) => {
    const res = await checkout(token, body);
    expect(res.statusCode, res.body).toBe(200);
    const id = (res.json() as { url: string }).url.split('/').at(-1)!;
    return stripe.sessions.get(id)!;
  };
  /** Delivers an event signed as Stripe does; `tamper` changes the body after signing. */
  const deliver = async (
    event: FakeEvent,
    options: { tamper?: (body: string) => string; secret?: string } = {},
  ) => {
    const body = JSON.stringify(event);
    const signature = stripe.sign(body, options.secret);
    return (await http()).inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': signature },
      payload: options.tamper ? options.tamper(body) : body,
    });
  };
  const count = async (table: 'billing_events' | 'billing_grants') =>
    Number(
      (
        await billingDb(app.store.db)
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    stripe = await startFakeStripe();
    telegram = await startFakeTelegram();
    app = await createTestApp(kind, {
      env: {
        STRIPE_SECRET_KEY: stripe.secretKey,
        STRIPE_WEBHOOK_SECRET: stripe.webhookSecret,
        STRIPE_API_URL: stripe.url,
        PUBLIC_URL: 'http://charla.test',
        TELEGRAM_API_ROOT: telegram.apiRoot,
        TELEGRAM_MODE: 'polling',
        TELEGRAM_POLL_TIMEOUT_S: '1',
      },
      // Far apart: a paused bot coming back proves the payment reconciled it, not the timer.
      supervisorIntervalMs: 10 * 60_000,
    });
  });
  afterAll(async () => {
    await app?.close();
    await stripe?.close();
    await telegram?.close();
  });

  it('creates a custom checkout: payment mode, 7 days × 90 = 630 cents in eur, the session’s owner in the metadata', async () => {
    const owner = await app.owner('custom@example.com');
    const other = await app.owner('someone-else@example.com');
    const res = await checkout(owner.token, {
      plan: 'custom',
      customDays: 7,
      userId: other.id,
      userEmail: 'someone-else@example.com',
      lang: 'en',
    });
    expect(res.statusCode, res.body).toBe(200);
    const { url } = res.json() as { url: string };
    expect(url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));

    const sent = stripe.requests.at(-1)!;
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(sent.headers.authorization).toBe(`Bearer ${stripe.secretKey}`);
    expect(sent.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(sent.params).toMatchObject({
      mode: 'payment',
      client_reference_id: owner.id,
      customer_email: 'custom@example.com',
      locale: 'en',
      metadata: { charla_owner: owner.id, charla_plan: 'custom', charla_days: '7' },
      line_items: [{ quantity: '7', price_data: { currency: 'eur', unit_amount: '90' } }],
    });
    expect(String(sent.params.success_url)).toMatch(/^http:\/\/charla\.test\/gestion\?pago=ok/);
    expect(String(sent.params.cancel_url)).toBe('http://charla.test/gestion?pago=cancelado');
    expect(stripe.sessions.get(url.split('/').at(-1)!)).toMatchObject({ amount_total: 630, currency: 'eur' });
  });

  it('creates a monthly checkout: subscription mode, 1999 cents every 30 days, the owner on the subscription too', async () => {
    const owner = await app.owner('monthly@example.com');
    const session = await startCheckout(owner.token, { plan: 'monthly_35' });
    expect(session).toMatchObject({ mode: 'subscription', amount_total: 1999, currency: 'eur' });
    expect(stripe.requests.at(-1)!.params).toMatchObject({
      mode: 'subscription',
      client_reference_id: owner.id,
      metadata: { charla_owner: owner.id, charla_plan: 'monthly_35', charla_days: '35' },
      subscription_data: { metadata: { charla_owner: owner.id, charla_plan: 'monthly_35' } },
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'eur',
            unit_amount: '1999',
            recurring: { interval: 'day', interval_count: '30' },
          },
        },
      ],
    });
  });

  it('refuses custom days outside 1 to 21 with the spec’s texts and asks Stripe nothing', async () => {
    const owner = await app.owner('bounds@example.com');
    const before = stripe.requests.length;
    const zero = await checkout(owner.token, { plan: 'custom', customDays: 0 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json()).toEqual({ error: 'Necesitas al menos 1 día', code: 'tooFew' });
    const many = await checkout(owner.token, { plan: 'custom', customDays: 22 });
    expect(many.statusCode).toBe(400);
    expect(many.json()).toMatchObject({
      code: 'tooMany',
      error: expect.stringContaining('35 días por 19,99€'),
    });
    const half = await checkout(owner.token, { plan: 'custom', customDays: 2.5 });
    expect(half.statusCode).toBe(400);
    expect(stripe.requests.length).toBe(before);
  });

  it('answers "Error iniciando el pago" when Stripe refuses, and nothing is granted', async () => {
    const owner = await app.owner('refused@example.com');
    stripe.failNext('/v1/checkout/sessions', 400, {
      type: 'invalid_request_error',
      message: 'Invalid currency',
    });
    const res = await checkout(owner.token, { plan: 'custom', customDays: 3 });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({ error: 'Error iniciando el pago', code: 'checkout' });
    expect((await status(owner.token)).history.filter((h) => h.kind !== 'trial')).toEqual([]);
  });

  it('adds a paid custom checkout’s days once when the webhook is delivered three times', async () => {
    const owner = await app.owner('three-times@example.com');
    await setDays(owner.id, 5);
    const session = await startCheckout(owner.token, { plan: 'custom', customDays: 7 });
    const event = stripe.event('checkout.session.completed', stripe.complete(session.id));
    for (let i = 0; i < 3; i++) {
      const res = await deliver(event);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ received: true, duplicate: i > 0 });
    }
    // The same payment as another event id (Stripe re-sends, or an operator resends it): still once.
    expect(
      (await deliver(stripe.event('checkout.session.completed', stripe.complete(session.id)))).statusCode,
    ).toBe(200);
    const after = await status(owner.token);
    expect(after.daysRemaining).toBe(12);
    expect(after.plan).toBe('daily_0.90');
    expect(after.history.filter((h) => h.kind === 'checkout')).toEqual([
      expect.objectContaining({ days: 7, amountCents: 630, currency: 'eur', source: 'custom' }),
    ]);
  });

  it('adds once for completed + async_payment_succeeded, waits for a delayed payment, and grants nothing when it fails', async () => {
    const owner = await app.owner('async@example.com');
    await setDays(owner.id, 1);
    const both = await startCheckout(owner.token, { plan: 'custom', customDays: 2 });
    const paid = stripe.complete(both.id);
    await deliver(stripe.event('checkout.session.completed', paid));
    await deliver(stripe.event('checkout.session.async_payment_succeeded', paid));
    expect((await status(owner.token)).daysRemaining).toBe(3);

    const delayed = await startCheckout(owner.token, { plan: 'custom', customDays: 4 });
    await deliver(
      stripe.event('checkout.session.completed', stripe.complete(delayed.id, { paymentStatus: 'unpaid' })),
    );
    expect((await status(owner.token)).daysRemaining).toBe(3);
    await deliver(stripe.event('checkout.session.async_payment_succeeded', stripe.complete(delayed.id)));
    expect((await status(owner.token)).daysRemaining).toBe(7);

    const failed = await startCheckout(owner.token, { plan: 'custom', customDays: 5 });
    const unpaid = stripe.complete(failed.id, { paymentStatus: 'unpaid' });
    await deliver(stripe.event('checkout.session.completed', unpaid));
    await deliver(stripe.event('checkout.session.async_payment_failed', unpaid));
    expect((await status(owner.token)).daysRemaining).toBe(7);
  });

  it('refuses a tampered body, a wrong secret and a missing signature, storing nothing', async () => {
    const owner = await app.owner('tampered@example.com');
    await setDays(owner.id, 2);
    const session = await startCheckout(owner.token, { plan: 'custom', customDays: 1 });
    const event = stripe.event('checkout.session.completed', stripe.complete(session.id));
    const [events, grants] = [await count('billing_events'), await count('billing_grants')];

    const tampered = await deliver(event, {
      tamper: (b) => b.replace('"charla_days":"1"', '"charla_days":"21"'),
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json()).toEqual({ error: 'Firma de Stripe no válida.' });
    expect((await deliver(event, { secret: 'whsec_not_the_right_one' })).statusCode).toBe(400);
    const unsigned = await (await http()).inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify(event),
    });
    expect(unsigned.statusCode).toBe(400);
    // Issue 24 §8: a signature dated more than 5 minutes ahead is refused (the SDK only checks the past).
    const body = JSON.stringify(event);
    const ahead = await (await http()).inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': Stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: stripe.webhookSecret,
          timestamp: Math.floor(Date.now() / 1000) + 600,
        }),
      },
      payload: body,
    });
    expect(ahead.statusCode).toBe(400);
    expect([await count('billing_events'), await count('billing_grants')]).toEqual([events, grants]);
    expect((await status(owner.token)).daysRemaining).toBe(2);

    // The untouched event still works afterwards.
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await status(owner.token)).daysRemaining).toBe(3);
  });

  it('grants a subscription’s first period once (completed and invoice.paid, in either order) and 35 days per renewal', async () => {
    const owner = await app.owner('renewals@example.com');
    const session = await startCheckout(owner.token, { plan: 'monthly_35' });
    const completed = stripe.complete(session.id);
    const subscriptionId = completed.subscription!;
    // invoice.paid (subscription_create) arrives before checkout.session.completed.
    await deliver(stripe.event('invoice.paid', stripe.invoice(subscriptionId, 'subscription_create')));
    expect((await status(owner.token)).subscription).toMatchObject({ id: subscriptionId });
    await deliver(stripe.event('checkout.session.completed', completed));
    let now = await status(owner.token);
    expect(now.daysRemaining).toBe(30 + 35);
    expect(now.plan).toBe('monthly_35');
    expect(now.subscription).toMatchObject({ id: subscriptionId, cancelAtPeriodEnd: false });

    for (let i = 0; i < 2; i++) {
      const renewal = stripe.event('invoice.paid', stripe.invoice(subscriptionId, 'subscription_cycle'));
      await deliver(renewal);
      await deliver(renewal);
    }
    now = await status(owner.token);
    expect(now.daysRemaining).toBe(30 + 35 + 70);
    expect(now.history.map((h) => [h.kind, h.days, h.amountCents])).toEqual([
      ['renewal', 35, 1999],
      ['renewal', 35, 1999],
      ['checkout', 35, 1999],
      ['trial', 30, null],
    ]);
  });

  it('cancels only the owner’s own renewal at period end, keeps the days, and says "Error actualizando estado" on failure', async () => {
    const owner = await app.owner('cancel@example.com');
    const other = await app.owner('cancel-other@example.com');
    const session = await startCheckout(owner.token, { plan: 'monthly_35' });
    const completed = stripe.complete(session.id);
    await deliver(stripe.event('checkout.session.completed', completed));
    const subscriptionId = completed.subscription!;
    const days = (await status(owner.token)).daysRemaining;
    expect(days).toBeGreaterThanOrEqual(35);

    // A second monthly subscription while one renews is refused.
    expect((await checkout(owner.token, { plan: 'monthly_35' })).statusCode).toBe(409);

    const before = stripe.requests.length;
    const cancel = (token: string, payload: object) =>
      http().then((h) =>
        h.inject({ method: 'POST', url: '/api/cancel-subscription', headers: auth(token), payload }),
      );
    const theirs = await cancel(other.token, { subscription_id: subscriptionId });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json()).toMatchObject({ error: 'No tienes una suscripción activa.' });
    expect(stripe.requests.length).toBe(before);
    expect(stripe.subscriptions.get(subscriptionId)!.cancel_at_period_end).toBe(false);

    stripe.failNext(`/v1/subscriptions/${subscriptionId}`, 400, {
      type: 'invalid_request_error',
      message: 'This subscription cannot be updated right now.',
    });
    const failed = await cancel(owner.token, {});
    expect(failed.statusCode).toBe(502);
    expect(failed.json()).toEqual({ error: 'Error actualizando estado', code: 'cancel' });

    const ok = await cancel(owner.token, { subscription_id: subscriptionId });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(stripe.requests.at(-1)).toMatchObject({
      path: `/v1/subscriptions/${subscriptionId}`,
      params: { cancel_at_period_end: 'true' },
    });
    const after = await status(owner.token);
    expect(after.daysRemaining).toBe(days);
    expect(after.subscription).toMatchObject({ id: subscriptionId, cancelAtPeriodEnd: true });
    // No renewing subscription any more: the profile's id is cleared (the coupon field shows again).
    const profile = await app.store.db
      .selectFrom('user_profiles')
      .select('stripe_subscription_id')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(profile.stripe_subscription_id).toBeNull();
  });

  it('clears the subscription id on customer.subscription.deleted and keeps the days; a late older update changes nothing', async () => {
    const owner = await app.owner('deleted@example.com');
    const session = await startCheckout(owner.token, { plan: 'monthly_35' });
    const completed = stripe.complete(session.id);
    const subscriptionId = completed.subscription!;
    const sessionEvent = stripe.event(
      'checkout.session.completed',
      completed,
      Math.floor(Date.now() / 1000) - 60,
    );
    await deliver(sessionEvent);
    const days = (await status(owner.token)).daysRemaining;
    const sub = stripe.subscriptions.get(subscriptionId)!;
    await deliver(stripe.event('customer.subscription.deleted', { ...sub, status: 'canceled' }));
    // An update sent before the deletion arrives after it: ignored.
    await deliver(stripe.event('customer.subscription.updated', sub, Math.floor(Date.now() / 1000) - 30));
    const after = await status(owner.token);
    expect(after.subscription).toBeNull();
    expect(after.daysRemaining).toBe(days);
    const profile = await app.store.db
      .selectFrom('user_profiles')
      .select('stripe_subscription_id')
      .where('user_id', '=', owner.id)
      .executeTakeFirstOrThrow();
    expect(profile.stripe_subscription_id).toBeNull();
  });

  it('lets no other owner pay for, cancel or read this owner’s billing', async () => {
    const a = await app.owner('tenant-a@example.com');
    const b = await app.owner('tenant-b@example.com');
    await setDays(a.id, 4);
    await setDays(b.id, 9);
    const aSession = await startCheckout(a.token, { plan: 'monthly_35' });
    const completed = stripe.complete(aSession.id);
    await deliver(stripe.event('checkout.session.completed', completed));

    // B asks to pay "for A": the session is B's.
    const forA = await startCheckout(b.token, {
      plan: 'custom',
      customDays: 1,
      userId: a.id,
      userEmail: 'tenant-a@example.com',
    });
    expect(forA.client_reference_id).toBe(b.id);
    expect(forA.metadata.charla_owner).toBe(b.id);
    expect(forA.customer_email).toBe('tenant-b@example.com');
    // B reads only B's billing.
    const seen = await status(b.token);
    expect(seen).toMatchObject({
      id: b.id,
      email: 'tenant-b@example.com',
      daysRemaining: 9,
      subscription: null,
    });
    expect(seen.history.some((h) => h.source === 'monthly_35')).toBe(false);
    // B cannot cancel A's subscription.
    const cancel = await (await http()).inject({
      method: 'POST',
      url: '/api/cancel-subscription',
      headers: auth(b.token),
      payload: { subscription_id: completed.subscription },
    });
    expect(cancel.statusCode).toBe(404);
    expect((await status(a.token)).subscription).toMatchObject({
      id: completed.subscription,
      cancelAtPeriodEnd: false,
    });
    // Without a session, every billing route asks to sign in.
    for (const [method, url] of [
      ['GET', '/api/billing'],
      ['POST', '/api/create-checkout-session'],
      ['POST', '/api/cancel-subscription'],
      ['POST', '/api/redeem-coupon'],
    ] as const) {
      const res = await (await http()).inject({ method, url });
      expect(res.statusCode, url).toBe(401);
      expect(res.json()).toEqual({ error: 'Debes iniciar sesión.' });
    }
  });

  it('brings back a paused Telegram bot when its owner, whose trial ended, pays for 7 days; a replay adds nothing', async () => {
    const owner = await app.owner('trial-ended@example.com');
    await setDays(owner.id, 30);
    const saved = await (await http()).inject({
      method: 'POST',
      url: '/api/save-chatbot',
      headers: auth(owner.token),
      payload: { business_name: 'Pastelería Lola', business_description: 'Tartas por encargo.' },
    });
    const botId = (saved.json() as { id: string }).id;
    const bot = telegram.addBot('lola_bot');
    const connected = await (await http()).inject({
      method: 'POST',
      url: '/api/verify-telegram',
      headers: auth(owner.token),
      payload: { telegramToken: bot.token, telegramUsername: 'lola_bot', chatbotId: botId },
    });
    expect(connected.statusCode, connected.body).toBe(200);
    await app.startChannels();
    await telegram.sendText(bot.token, { id: 71 }, 'hola');
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 1);

    // The trial ends: at 0 days the supervisor pauses the bot (its token kept).
    await setDays(owner.id, -1);
    await app.supervisor.reconcileOwner(owner.id);
    const paused = await (await http()).inject({
      method: 'GET',
      url: '/api/get-telegram-config',
      headers: auth(owner.token),
    });
    expect(paused.json()).toMatchObject({ connected: true, health: { state: 'paused' } });
    expect((await status(owner.token)).daysRemaining).toBe(0);
    await telegram.sendText(bot.token, { id: 71 }, '¿seguís abiertos?');

    // Pays for 7 days: the webhook adds them and reconnects the bot at once (the timer is 10 minutes).
    const session = await startCheckout(owner.token, { plan: 'custom', customDays: 7 });
    const event = stripe.event('checkout.session.completed', stripe.complete(session.id));
    expect((await deliver(event)).statusCode).toBe(200);
    expect((await status(owner.token)).daysRemaining).toBe(7);
    await telegram.waitFor(() => telegram.callsOf(bot.token, 'sendMessage').length === 2, 10_000);
    expect(String(telegram.callsOf(bot.token, 'sendMessage')[1]!.params.chat_id)).toBe('71');

    // A replayed webhook adds nothing.
    expect((await deliver(event)).json()).toEqual({ received: true, duplicate: true });
    expect((await status(owner.token)).daysRemaining).toBe(7);
  });
});
