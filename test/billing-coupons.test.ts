/**
 * Coupons and a server without Stripe (issue 11, spec 001 §4, §5, §8): codes uppercased, expired,
 * exhausted and already-redeemed coupons refused with nothing granted, 20 parallel redemptions of a
 * 5-use coupon granting exactly 5 (the database decides: a counted update and a unique redemption
 * row), the per-owner rate limit; without STRIPE_SECRET_KEY payments say they are off while coupons
 * still add days.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../engine/rate-limits.ts';
import type { BillingStatus } from '../plugins/billing/api.ts';
import { createCoupon } from '../plugins/billing/coupons.ts';
import { billingDb } from '../plugins/billing/queries.ts';
import { createTestApp, type TestApp } from './helpers/app.ts';
import { dialectsOf } from './helpers/db.ts';

const DAY = 86_400_000;

describe.each(dialectsOf(import.meta.url))('coupons on %s (a server without Stripe)', (kind) => {
  let app: TestApp;
  let address = 0;

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });
  const redeem = async (token: string, couponCode: unknown) =>
    (await app.http()).inject({
      method: 'POST',
      url: '/api/redeem-coupon',
      // Each call from its own address, so only the per-owner limit is in play (trustProxy: loopback).
      headers: { ...auth(token), 'x-forwarded-for': `203.0.113.${++address % 250}` },
      payload: { couponCode, userId: 'someone-else' },
    });
  const status = async (token: string): Promise<BillingStatus> =>
    (await (await app.http()).inject({ method: 'GET', url: '/api/billing', headers: auth(token) })).json();
  const coupon = (code: string, days: number, extra: { max?: number; until?: Date } = {}) =>
    createCoupon(billingDb(app.store.db), {
      code,
      days,
      maxRedemptions: extra.max ?? null,
      validUntil: extra.until ?? null,
      createdBy: 'test',
    });
  const setDays = async (userId: string, days: number) => {
    const expires = new Date(Date.now() + days * DAY);
    await app.store.db
      .insertInto('user_profiles')
      .values({ user_id: userId, plan: 'free', expires_at: expires })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ expires_at: expires }))
      .execute();
  };

  beforeAll(async () => {
    app = await createTestApp(kind);
  });
  afterAll(async () => {
    await app?.close();
  });

  it('uppercases the code, adds its days from max(now, expiry), and says so with the spec’s text', async () => {
    const owner = await app.owner('verano@example.com');
    await setDays(owner.id, -3);
    expect(await coupon('verano26', 10)).toMatchObject({ code: 'VERANO26' });
    const res = await redeem(owner.token, ' Verano26 ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      message: 'Cupón aplicado. ¡Disfruta de tus días extra!',
      days: 10,
    });
    const after = await status(owner.token);
    expect(after.daysRemaining).toBe(10);
    expect(after.history[0]).toMatchObject({
      kind: 'coupon',
      days: 10,
      source: 'VERANO26',
      amountCents: null,
    });
  });

  it('refuses unknown, expired, exhausted and already-redeemed coupons, granting nothing', async () => {
    const one = await app.owner('cupones-1@example.com');
    const two = await app.owner('cupones-2@example.com');
    await setDays(one.id, 2);
    await setDays(two.id, 2);
    await coupon('CADUCADO', 5, { until: new Date(Date.now() - 60_000) });
    await coupon('UNAVEZ', 5, { max: 1 });

    const unknown = await redeem(one.token, 'NOEXISTE');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ error: 'Cupón inválido', code: 'invalid' });
    const expired = await redeem(one.token, 'caducado');
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ code: 'expired' });

    expect((await redeem(one.token, 'UNAVEZ')).statusCode).toBe(200);
    const again = await redeem(one.token, 'unavez');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({ error: 'Ya has usado este cupón.', code: 'alreadyRedeemed' });
    const exhausted = await redeem(two.token, 'UNAVEZ');
    expect(exhausted.statusCode).toBe(409);
    expect(exhausted.json()).toMatchObject({ code: 'exhausted' });

    expect((await status(one.token)).daysRemaining).toBe(7);
    expect((await status(two.token)).daysRemaining).toBe(2);
    const row = await billingDb(app.store.db)
      .selectFrom('billing_coupons')
      .select('redeemed')
      .where('code', '=', 'UNAVEZ')
      .executeTakeFirstOrThrow();
    expect(row.redeemed).toBe(1);
  });

  it('grants exactly 5 of 20 parallel redemptions of a 5-use coupon', async () => {
    await coupon('CINCO', 3, { max: 5 });
    const owners = await Promise.all(
      Array.from({ length: 20 }, (_, i) => app.owner(`paralelo-${i}@example.com`)),
    );
    const results = await Promise.all(owners.map((o) => redeem(o.token, 'cinco')));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(15);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json()).toMatchObject({ code: 'exhausted' });
    const db = billingDb(app.store.db);
    const { redeemed } = await db
      .selectFrom('billing_coupons')
      .select('redeemed')
      .where('code', '=', 'CINCO')
      .executeTakeFirstOrThrow();
    expect(redeemed).toBe(5);
    const grants = await db.selectFrom('billing_grants').select('id').where('source', '=', 'CINCO').execute();
    expect(grants).toHaveLength(5);
  });

  it('grants once when one owner redeems the same coupon twice at the same moment', async () => {
    const owner = await app.owner('doble@example.com');
    await setDays(owner.id, 1);
    await coupon('DOBLE', 4);
    const results = await Promise.all([redeem(owner.token, 'DOBLE'), redeem(owner.token, 'DOBLE')]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect((await status(owner.token)).daysRemaining).toBe(5);
  });

  it(`limits one owner to ${LIMITS.couponOwner.max} attempts per 10 minutes`, async () => {
    const owner = await app.owner('adivino@example.com');
    for (let i = 0; i < LIMITS.couponOwner.max; i++)
      expect((await redeem(owner.token, `PRUEBA${i}`)).statusCode).toBe(404);
    const limited = await redeem(owner.token, 'PRUEBA-OTRA');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'tooMany' });
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('asks to sign in without a session, and refuses an empty code', async () => {
    const anonymous = await (await app.http()).inject({
      method: 'POST',
      url: '/api/redeem-coupon',
      payload: { couponCode: 'VERANO26' },
    });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ error: 'Debes iniciar sesión.' });
    const owner = await app.owner('vacio@example.com');
    expect((await redeem(owner.token, '   ')).statusCode).toBe(400);
  });

  it('says payments are off without STRIPE_SECRET_KEY, and the webhook is not there to forge', async () => {
    const owner = await app.owner('sin-stripe@example.com');
    expect(await status(owner.token)).toMatchObject({ paymentsEnabled: false });
    const res = await (await app.http()).inject({
      method: 'POST',
      url: '/api/create-checkout-session',
      headers: auth(owner.token),
      payload: { plan: 'custom', customDays: 3 },
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'paymentsOff' });
    const hook = await (await app.http()).inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=x' },
      payload: '{}',
    });
    expect(hook.statusCode).toBe(503);
  });
});
