/**
 * Applying Stripe's webhook events (issue 11; https://docs.stripe.com/webhooks,
 * https://docs.stripe.com/billing/subscriptions/webhooks). The route (routes.ts) verifies the
 * signature on the raw body first; the signed event's object is trusted as it came (no call back to
 * Stripe). Exactly once:
 * - every event id is recorded in the transaction that applies it (a replay does nothing; a failure
 *   leaves it unrecorded, Stripe retries);
 * - days are granted by a key, not by event: `checkout:<session id>` for a one-off payment,
 *   `invoice:<invoice id>` for every paid subscription period. The first period of a subscription
 *   fires both `checkout.session.completed` (whose `invoice` is that period's invoice) and
 *   `invoice.paid` (`billing_reason: subscription_create`): both use `invoice:<id>`, so whichever
 *   comes first grants and the other finds the key taken. `completed` + `async_payment_succeeded` for
 *   one session share `checkout:<id>` the same way.
 * - subscription state keeps the newest event's (events may arrive out of order; queries.ts).
 * Invoices name their subscription under `parent.subscription_details` since API version
 * 2025-03-31.basil (the SDK's pinned version is newer); older endpoints send `invoice.subscription`.
 * Both are read.
 */
import { z } from 'zod';
import type { Logger } from '../../engine/logger.ts';
import { CUSTOM_PLAN, customDaysProblem, MONTHLY_PLAN, PROFILE_PLAN } from './plans.ts';
import {
  applySubscriptionState,
  type BillingDb,
  findBillingProfile,
  findSubscription,
  grantInTransaction,
  ownerExists,
  recordEvent,
  setEventOutcome,
  subscriptionOwner,
} from './queries.ts';
import { META } from './stripe.ts';

const IdOrObject = z.union([z.string(), z.object({ id: z.string() }).transform((o) => o.id)]);
const Metadata = z.record(z.string(), z.string()).nullish();

/** The fields of a Checkout Session Charla reads. */
const SessionObject = z.object({
  id: z.string(),
  mode: z.string(),
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: Metadata,
  subscription: IdOrObject.nullish(),
  invoice: IdOrObject.nullish(),
  amount_total: z.number().int().nullish(),
  currency: z.string().nullish(),
});

/** The fields of an Invoice Charla reads (both API shapes of its subscription). */
const InvoiceObject = z.object({
  id: z.string(),
  billing_reason: z.string().nullish(),
  amount_paid: z.number().int().nullish(),
  currency: z.string().nullish(),
  subscription: IdOrObject.nullish(),
  parent: z
    .object({
      subscription_details: z.object({ subscription: IdOrObject, metadata: Metadata }).nullish(),
    })
    .nullish(),
  lines: z.object({ data: z.array(z.object({ period: z.object({ end: z.number() }).nullish() })) }).nullish(),
});

/** The fields of a Subscription Charla reads (period end moved to its items in 2025-03-31.basil). */
const SubscriptionObject = z.object({
  id: z.string(),
  status: z.string(),
  cancel_at_period_end: z.boolean().default(false),
  metadata: Metadata,
  current_period_end: z.number().nullish(),
  items: z.object({ data: z.array(z.object({ current_period_end: z.number().nullish() })) }).nullish(),
});

/** An event as the route hands it over (verified). */
export interface StripeEventLike {
  id: string;
  type: string;
  /** Unix seconds. */
  created: number;
  data: { object: unknown };
}

/** What applying an event did. */
export interface EventOutcome {
  /** True when the event id was seen before (nothing done). */
  duplicate: boolean;
  /** A short description, stored with the event. */
  outcome: string;
  /** The owner whose days changed (their channels are reconciled after the commit). */
  granted?: { userId: string; days: number };
}

/** The event types Charla acts on (README, "Set up Stripe"). */
export const HANDLED_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'invoice.paid',
  'customer.subscription.updated',
  'customer.subscription.deleted',
] as const;

const fromUnix = (s: number) => new Date(s * 1000);

/** The clock and log applying an event uses. */
export interface EventDeps {
  now: Date;
  log: Logger;
}
type Session = z.infer<typeof SessionObject>;
type Invoice = z.infer<typeof InvoiceObject>;

/**
 * Applies one verified event in one transaction (see the module comment).
 * @throws on a database error (the event stays unrecorded; the route answers 500 and Stripe retries).
 */
export async function applyEvent(
  db: BillingDb,
  event: StripeEventLike,
  deps: EventDeps,
): Promise<EventOutcome> {
  return db.transaction().execute(async (trx) => {
    const fresh = await recordEvent(trx, {
      id: event.id,
      type: event.type,
      created: fromUnix(event.created),
      outcome: 'received',
    });
    if (!fresh) return { duplicate: true, outcome: 'duplicate' };
    const result = await handle(trx, event, deps);
    await setEventOutcome(trx, event.id, result.outcome);
    return { duplicate: false, ...result };
  });
}

type Trx = Parameters<typeof recordEvent>[0];
/** What applying an event tells (whether it was a duplicate is {@link applyEvent}'s to say). */
type Applied = Omit<EventOutcome, 'duplicate'>;

async function handle(trx: Trx, event: StripeEventLike, deps: EventDeps): Promise<Applied> {
  const created = fromUnix(event.created);
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return sessionPaid(trx, SessionObject.parse(event.data.object), created, deps);
    case 'checkout.session.async_payment_failed': {
      const session = SessionObject.parse(event.data.object);
      deps.log.warn({ session: session.id }, 'a delayed checkout payment failed; no days granted');
      return { outcome: 'payment failed: no days' };
    }
    case 'invoice.paid':
      return invoicePaid(trx, InvoiceObject.parse(event.data.object), created, deps);
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const sub = SubscriptionObject.parse(event.data.object);
      const userId = await ownerOf(trx, sub.metadata?.[META.owner], sub.id);
      if (!userId) return { outcome: 'ignored: not a Charla subscription' };
      const periodEnd = sub.items?.data[0]?.current_period_end ?? sub.current_period_end ?? null;
      const applied = await applySubscriptionState(trx, {
        id: sub.id,
        userId,
        status: event.type === 'customer.subscription.deleted' ? 'canceled' : sub.status,
        cancelAtPeriodEnd: sub.cancel_at_period_end,
        currentPeriodEnd: periodEnd ? fromUnix(periodEnd) : null,
        eventCreated: created,
      });
      return { outcome: applied ? `subscription ${sub.status}` : 'ignored: older than the stored state' };
    }
    default:
      return { outcome: `ignored: ${event.type}` };
  }
}

/** The owner named by metadata (when that owner exists), else the known owner of the subscription. */
async function ownerOf(trx: Trx, fromMetadata: string | null | undefined, subscriptionId?: string | null) {
  if (fromMetadata && (await ownerExists(trx, fromMetadata))) return fromMetadata;
  return subscriptionId ? subscriptionOwner(trx, subscriptionId) : undefined;
}

async function sessionPaid(trx: Trx, session: Session, created: Date, deps: EventDeps): Promise<Applied> {
  const userId = await ownerOf(trx, session.client_reference_id ?? session.metadata?.[META.owner]);
  if (!userId) return { outcome: 'ignored: no Charla owner on the session' };
  const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';

  if (session.mode === 'subscription') {
    if (session.subscription) {
      await applySubscriptionState(trx, {
        id: session.subscription,
        userId,
        status: paid ? 'active' : 'incomplete',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: null,
        eventCreated: created,
      });
    }
    if (!paid) return { outcome: 'subscription started; waiting for its payment' };
    if (!session.invoice) return { outcome: 'subscription started; days come with invoice.paid' };
    return grantMonthly(trx, {
      invoiceId: session.invoice,
      userId,
      kind: 'checkout',
      amountCents: session.amount_total,
      currency: session.currency,
      now: deps.now,
    });
  }

  if (session.mode !== 'payment') return { outcome: `ignored: mode ${session.mode}` };
  if (!paid) return { outcome: 'waiting for the payment (async)' };
  const days = Number(session.metadata?.[META.days]);
  if (customDaysProblem(days)) {
    deps.log.error(
      { session: session.id },
      'paid checkout without valid days in its metadata; no days granted',
    );
    return { outcome: 'ignored: no valid days in metadata' };
  }
  // A day pass does not replace the monthly plan's name while a subscription renews.
  const profile = await findBillingProfile(trx, userId);
  const outcome = await grantInTransaction(trx, {
    key: `checkout:${session.id}`,
    userId,
    kind: 'checkout',
    days,
    amountCents: session.amount_total ?? days * CUSTOM_PLAN.dayCents,
    currency: session.currency ?? 'eur',
    source: CUSTOM_PLAN.id,
    ...(profile?.stripe_subscription_id ? {} : { plan: PROFILE_PLAN.custom }),
    now: deps.now,
  });
  return outcome.granted
    ? { outcome: `granted ${days} days`, granted: { userId, days } }
    : { outcome: 'already granted (session)' };
}

async function invoicePaid(trx: Trx, invoice: Invoice, created: Date, deps: EventDeps): Promise<Applied> {
  const details = invoice.parent?.subscription_details;
  const subscriptionId = details?.subscription ?? invoice.subscription;
  if (!subscriptionId) return { outcome: 'ignored: not a subscription invoice' };
  const reason = invoice.billing_reason ?? '';
  if (reason !== 'subscription_create' && reason !== 'subscription_cycle')
    return { outcome: `ignored: billing_reason ${reason || 'none'}` };
  const userId = await ownerOf(trx, details?.metadata?.[META.owner], subscriptionId);
  if (!userId) {
    deps.log.warn({ invoice: invoice.id }, 'paid invoice of a subscription Charla does not know; ignored');
    return { outcome: 'ignored: unknown subscription' };
  }
  // A paid invoice of a subscription not heard of yet (its checkout event still on its way): it renews.
  if (!(await findSubscription(trx, subscriptionId))) {
    await applySubscriptionState(trx, {
      id: subscriptionId,
      userId,
      status: 'active',
      cancelAtPeriodEnd: false,
      currentPeriodEnd: null,
      eventCreated: created,
    });
  }
  return grantMonthly(trx, {
    invoiceId: invoice.id,
    userId,
    kind: reason === 'subscription_create' ? 'checkout' : 'renewal',
    amountCents: invoice.amount_paid,
    currency: invoice.currency,
    now: deps.now,
  });
}

/**
 * Grants one paid monthly period ({@link MONTHLY_PLAN}`.days`) once per invoice (`invoice:<id>`), at
 * the amount and currency Stripe reports (the plan's price and EUR when it reports none).
 */
async function grantMonthly(
  trx: Trx,
  paid: {
    invoiceId: string;
    userId: string;
    kind: 'checkout' | 'renewal';
    amountCents: number | null | undefined;
    currency: string | null | undefined;
    now: Date;
  },
) {
  const { userId } = paid;
  const outcome = await grantInTransaction(trx, {
    key: `invoice:${paid.invoiceId}`,
    userId,
    kind: paid.kind,
    days: MONTHLY_PLAN.days,
    amountCents: paid.amountCents ?? MONTHLY_PLAN.amountCents,
    currency: paid.currency ?? 'eur',
    source: MONTHLY_PLAN.id,
    plan: PROFILE_PLAN.monthly,
    now: paid.now,
  });
  return outcome.granted
    ? { outcome: `granted ${MONTHLY_PLAN.days} days`, granted: { userId, days: MONTHLY_PLAN.days } }
    : { outcome: 'already granted (invoice)' };
}
