/**
 * A local server that speaks the Stripe API's documented wire format (https://docs.stripe.com/api):
 * `application/x-www-form-urlencoded` bodies with bracketed keys as the `stripe` SDK sends them
 * (`line_items[0][price_data][unit_amount]=90`), `Authorization: Bearer <secret key>`, JSON answers,
 * and errors as `{"error":{"type","message","code"}}` with Stripe's status codes. It covers the
 * calls Charla makes — `POST /v1/checkout/sessions`, `POST /v1/subscriptions/:id` and
 * `DELETE /v1/subscriptions/:id` (an account deleted, issue 26 §5) — records every
 * request so tests assert what Charla sent, and builds the objects and events Stripe would send
 * afterwards (a completed session, its subscription and invoices, renewals) for webhook tests.
 * `GET /c/pay/:id` is a stand-in for Stripe's hosted checkout page (the dashboard redirects there).
 * Nothing leaves the machine.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import Stripe from 'stripe';

/** One request Charla made. */
export interface StripeRequest {
  method: string;
  path: string;
  /** The decoded form body (nested objects, arrays for numeric keys). */
  params: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
}

/** A Checkout Session as the server keeps it (Stripe's object shape, the fields Charla uses). */
export interface FakeSession {
  id: string;
  object: 'checkout.session';
  mode: 'payment' | 'subscription';
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid' | 'no_payment_required';
  client_reference_id: string | null;
  customer_email: string | null;
  metadata: Record<string, string>;
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  success_url: string;
  cancel_url: string;
  locale: string | null;
  url: string | null;
  subscription: string | null;
  invoice: string | null;
  line_items_params: Array<Record<string, unknown>>;
  subscription_metadata: Record<string, string>;
  created: number;
}

/** A subscription as the server keeps it. */
export interface FakeSubscription {
  id: string;
  object: 'subscription';
  status: string;
  cancel_at_period_end: boolean;
  metadata: Record<string, string>;
  customer: string;
  items: {
    object: 'list';
    data: Array<{ id: string; current_period_start: number; current_period_end: number }>;
  };
  created: number;
}

/** A Stripe event (snapshot payload) ready to be signed and delivered. */
export interface FakeEvent {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: null; idempotency_key: null };
  type: string;
  data: { object: Record<string, unknown> };
}

/** A running fake Stripe. */
export interface FakeStripe {
  /** Give it to Charla as `STRIPE_API_URL`. */
  url: string;
  /** The secret key it accepts (`STRIPE_SECRET_KEY`). */
  secretKey: string;
  /** The webhook signing secret events are signed with (`STRIPE_WEBHOOK_SECRET`). */
  webhookSecret: string;
  requests: StripeRequest[];
  sessions: Map<string, FakeSession>;
  subscriptions: Map<string, FakeSubscription>;
  /** The next call to `path` (e.g. `/v1/checkout/sessions`) fails with this status and error. */
  failNext(path: string, status: number, error: { type: string; message: string; code?: string }): void;
  /**
   * Completes a session as Stripe does when the customer pays: `status: complete`, and
   * `payment_status` `paid` (or `unpaid` for a delayed method). In subscription mode it creates the
   * subscription (metadata from `subscription_data`) and its first invoice.
   * @returns the session object as `checkout.session.completed` carries it.
   */
  complete(sessionId: string, options?: { paymentStatus?: 'paid' | 'unpaid' }): FakeSession;
  /** The first (`subscription_create`) or a renewal (`subscription_cycle`) invoice, paid. */
  invoice(
    subscriptionId: string,
    reason: 'subscription_create' | 'subscription_cycle',
  ): Record<string, unknown>;
  /** An event wrapping an object (`created` in Unix seconds, default now). */
  event(type: string, object: object, created?: number): FakeEvent;
  /** The `Stripe-Signature` header of a payload, as Stripe computes it (the SDK's test helper). */
  sign(payload: string, secret?: string): string;
  close(): Promise<void>;
}

/** Decodes a form body with bracketed keys into nested objects and arrays (Stripe's encoding). */
export function decodeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const parts = key.split(/\[|\]\[|\]/).filter((p, i) => p !== '' || i === 0);
    let node: Record<string, unknown> | unknown[] = root;
    parts.forEach((part, i) => {
      const last = i === parts.length - 1;
      const nextIsIndex = !last && /^\d+$/.test(parts[i + 1]!);
      const slot = part as keyof typeof node;
      if (last) {
        (node as Record<string, unknown>)[slot] = value;
        return;
      }
      (node as Record<string, unknown>)[slot] ??= nextIsIndex ? [] : {};
      node = (node as Record<string, unknown>)[slot] as Record<string, unknown>;
    });
  }
  return root;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(9).toString('hex')}`;
const unix = () => Math.floor(Date.now() / 1000);
const DAY_S = 86_400;

/** Starts the fake on 127.0.0.1 (random port). */
export async function startFakeStripe(): Promise<FakeStripe> {
  const secretKey = `sk_test_${randomBytes(12).toString('hex')}`;
  const webhookSecret = `whsec_${randomBytes(16).toString('hex')}`;
  const requests: StripeRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const subscriptions = new Map<string, FakeSubscription>();
  const failures = new Map<
    string,
    { status: number; error: { type: string; message: string; code?: string } }
  >();
  const app = Fastify();
  let base = '';

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, decodeForm(body as string)),
  );
  const stripeError = (status: number, type: string, message: string, code?: string) => ({
    status,
    body: { error: { type, message, ...(code ? { code } : {}) } },
  });

  app.addHook('preHandler', async (req, reply) => {
    if (!req.url.startsWith('/v1/')) return;
    const path = req.url.split('?')[0]!;
    requests.push({
      method: req.method,
      path,
      params: (req.body as Record<string, unknown>) ?? {},
      headers: req.headers,
    });
    reply.header('request-id', id('req'));
    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      const e = stripeError(401, 'invalid_request_error', 'Invalid API Key provided: sk_test_****');
      return reply.code(e.status).send(e.body);
    }
    const failure = failures.get(path);
    if (failure) {
      failures.delete(path);
      return reply.code(failure.status).send({ error: failure.error });
    }
  });

  app.post('/v1/checkout/sessions', async (req, reply) => {
    const p = req.body as Record<string, unknown>;
    const mode = p.mode as string;
    const items = (p.line_items as Array<Record<string, unknown>>) ?? [];
    const missing = ['mode', 'success_url'].find((k) => !p[k]);
    if (missing) {
      const e = stripeError(
        400,
        'invalid_request_error',
        `Missing required param: ${missing}.`,
        'parameter_missing',
      );
      return reply.code(e.status).send(e.body);
    }
    if (mode !== 'payment' && mode !== 'subscription') {
      const e = stripeError(400, 'invalid_request_error', `Invalid mode: ${mode}`, 'parameter_invalid_empty');
      return reply.code(e.status).send(e.body);
    }
    let total = 0;
    let currency = '';
    for (const item of items) {
      const price = item.price_data as Record<string, unknown> | undefined;
      if (!price) {
        const e = stripeError(400, 'invalid_request_error', 'Each line item needs price_data here.');
        return reply.code(e.status).send(e.body);
      }
      const recurring = price.recurring as Record<string, string> | undefined;
      if (mode === 'payment' && recurring) {
        const e = stripeError(
          400,
          'invalid_request_error',
          'You specified `payment` mode but passed a recurring price. Either switch to `subscription` mode or use only one-time prices.',
        );
        return reply.code(e.status).send(e.body);
      }
      if (mode === 'subscription' && !recurring) {
        const e = stripeError(
          400,
          'invalid_request_error',
          'You must provide at least one recurring price in `subscription` mode when using prices.',
        );
        return reply.code(e.status).send(e.body);
      }
      total += Number(price.unit_amount) * Number(item.quantity ?? 1);
      currency = String(price.currency);
    }
    const sessionId = id('cs');
    const session: FakeSession = {
      id: sessionId,
      object: 'checkout.session',
      mode,
      status: 'open',
      payment_status: 'unpaid',
      client_reference_id: (p.client_reference_id as string) ?? null,
      customer_email: (p.customer_email as string) ?? null,
      metadata: (p.metadata as Record<string, string>) ?? {},
      amount_total: total,
      amount_subtotal: total,
      currency,
      success_url: String(p.success_url),
      cancel_url: String(p.cancel_url ?? ''),
      locale: (p.locale as string) ?? null,
      url: `${base}/c/pay/${sessionId}`,
      subscription: null,
      invoice: null,
      line_items_params: items,
      subscription_metadata:
        ((p.subscription_data as Record<string, unknown> | undefined)?.metadata as Record<string, string>) ??
        {},
      created: unix(),
    };
    sessions.set(sessionId, session);
    const { line_items_params: _l, subscription_metadata: _s, ...wire } = session;
    return wire;
  });

  app.post('/v1/subscriptions/:id', async (req, reply) => {
    const sub = subscriptions.get((req.params as { id: string }).id);
    if (!sub) {
      const e = stripeError(
        404,
        'invalid_request_error',
        `No such subscription: '${(req.params as { id: string }).id}'`,
        'resource_missing',
      );
      return reply.code(e.status).send(e.body);
    }
    const p = req.body as Record<string, unknown>;
    if (p.cancel_at_period_end !== undefined) sub.cancel_at_period_end = p.cancel_at_period_end === 'true';
    return sub;
  });

  // Cancels a subscription at once (https://docs.stripe.com/api/subscriptions/cancel): a deleted account.
  app.delete('/v1/subscriptions/:id', async (req, reply) => {
    const sub = subscriptions.get((req.params as { id: string }).id);
    if (!sub) {
      const e = stripeError(404, 'invalid_request_error', 'No such subscription', 'resource_missing');
      return reply.code(e.status).send(e.body);
    }
    sub.status = 'canceled';
    return sub;
  });

  app.get('/c/pay/:id', async (req, reply) => {
    const session = sessions.get((req.params as { id: string }).id);
    if (!session) return reply.code(404).send('No such session');
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><title>Stripe test checkout</title><main><h1>Stripe test checkout</h1><p data-testid="amount">${session.amount_total} ${session.currency}</p><p data-testid="mode">${session.mode}</p></main></html>`,
      );
  });

  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

  const invoices = new Map<string, Record<string, unknown>>();
  const makeInvoice = (subscriptionId: string, reason: 'subscription_create' | 'subscription_cycle') => {
    const sub = subscriptions.get(subscriptionId);
    if (!sub) throw new Error(`no subscription ${subscriptionId}`);
    const item = sub.items.data[0]!;
    if (reason === 'subscription_cycle') {
      item.current_period_start = item.current_period_end;
      item.current_period_end += 30 * DAY_S;
    }
    const invoice = {
      id: id('in'),
      object: 'invoice',
      status: 'paid',
      billing_reason: reason,
      amount_due: 1999,
      amount_paid: 1999,
      currency: 'eur',
      customer: sub.customer,
      period_start: item.current_period_start,
      period_end: item.current_period_end,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: sub.id, metadata: { ...sub.metadata } },
      },
      lines: {
        object: 'list',
        data: [{ id: id('il'), period: { start: item.current_period_start, end: item.current_period_end } }],
      },
      created: unix(),
    };
    invoices.set(invoice.id, invoice);
    return invoice;
  };

  return {
    url: base,
    secretKey,
    webhookSecret,
    requests,
    sessions,
    subscriptions,
    failNext(path, status, error) {
      failures.set(path, { status, error });
    },
    complete(sessionId, options = {}) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`no session ${sessionId}`);
      session.status = 'complete';
      session.payment_status = options.paymentStatus ?? 'paid';
      if (session.mode === 'subscription' && !session.subscription) {
        const now = unix();
        const sub: FakeSubscription = {
          id: id('sub'),
          object: 'subscription',
          status: session.payment_status === 'paid' ? 'active' : 'incomplete',
          cancel_at_period_end: false,
          metadata: { ...session.subscription_metadata },
          customer: id('cus'),
          items: {
            object: 'list',
            data: [{ id: id('si'), current_period_start: now, current_period_end: now + 30 * DAY_S }],
          },
          created: now,
        };
        subscriptions.set(sub.id, sub);
        session.subscription = sub.id;
        session.invoice = String(makeInvoice(sub.id, 'subscription_create').id);
      }
      const { line_items_params: _l, subscription_metadata: _s, ...wire } = session;
      return { ...wire } as FakeSession;
    },
    invoice(subscriptionId, reason) {
      if (reason === 'subscription_create') {
        const first = [...invoices.values()].find(
          (i) =>
            i.billing_reason === 'subscription_create' &&
            (i.parent as { subscription_details: { subscription: string } }).subscription_details
              .subscription === subscriptionId,
        );
        if (first) return first;
      }
      return makeInvoice(subscriptionId, reason);
    },
    event(type, object, created = unix()) {
      return {
        id: id('evt'),
        object: 'event',
        api_version: Stripe.API_VERSION,
        created,
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object: JSON.parse(JSON.stringify(object)) as Record<string, unknown> },
      };
    },
    sign(payload, secret = webhookSecret) {
      return Stripe.webhooks.generateTestHeaderString({ payload, secret });
    },
    close: () => app.close(),
  };
}
