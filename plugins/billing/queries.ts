/**
 * Billing's SQL (docs/plugins.md: a plugin's SQL lives in its own queries.ts, as functions taking
 * `(db, …)`): grants of days, Stripe events and subscriptions, coupons, and the engine's
 * `user_profiles` (plan, expires_at, stripe_subscription_id) as billing changes it. Coupons are in
 * coupons.ts.
 *
 * Days are added from max(now, expires_at) in the same transaction that inserts the grant's unique
 * row, with the owner's profile row locked, so a key grants once and two grants never read the same
 * old expiry.
 */
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../engine/store/database.ts';
import type { BillingTables, GrantKind } from './tables.ts';

/** The store with billing's tables. */
export type BillingDb = Kysely<Database & BillingTables>;
/** A transaction over billing's tables. */
export type Trx = Transaction<Database & BillingTables>;

const DAY_MS = 86_400_000;

/** The store seen with billing's tables too. */
export function billingDb(db: Kysely<Database>): BillingDb {
  return db.withTables<BillingTables>();
}

/** One addition of days (see {@link grantDays}). */
export interface GrantInput {
  /** Unique key of what pays for the days (tables.ts `BillingGrantsTable.key`). */
  key: string;
  userId: string;
  kind: Exclude<GrantKind, 'trial'>;
  /** Days to add (> 0). */
  days: number;
  /** What was paid, EUR cents, when it was a payment. */
  amountCents?: number | null;
  currency?: string | null;
  /** The plan, coupon code or operator note, for the history. */
  source?: string | null;
  /** A new `user_profiles.plan`, when the grant changes it (`monthly_35`, `daily_0.90`). */
  plan?: string;
  now: Date;
}

/** What a grant did. */
export interface GrantOutcome {
  /** False when this key had granted before (nothing changed). */
  granted: boolean;
  /** The owner's expiry after the call. */
  expiresAt: Date | null;
}

/**
 * Adds days to an owner once per key: from max(now, expires_at), in one transaction with the
 * grant row (its unique key makes a second call a no-op). Creates the profile when missing.
 * @throws on a database error (nothing is written then).
 */
export async function grantDays(db: BillingDb, input: GrantInput): Promise<GrantOutcome> {
  return db.transaction().execute((trx) => grantInTransaction(trx, input));
}

/** {@link grantDays} inside a caller's transaction (a coupon's redemption). */
export async function grantInTransaction(trx: Trx, input: GrantInput): Promise<GrantOutcome> {
  if (!Number.isInteger(input.days) || input.days <= 0) throw new Error('days must be a positive integer');
  const profile = await lockProfile(trx, input.userId);
  await recordTrial(trx, input.userId, profile);
  const current = profile.expires_at ? new Date(profile.expires_at) : null;
  const from = current && current.getTime() > input.now.getTime() ? current : input.now;
  const expiresAt = new Date(from.getTime() + input.days * DAY_MS);
  const inserted = await trx
    .insertInto('billing_grants')
    .values({
      key: input.key,
      user_id: input.userId,
      kind: input.kind,
      days: input.days,
      amount_cents: input.amountCents ?? null,
      currency: input.currency ?? null,
      source: input.source ?? null,
      expires_after: expiresAt,
      created_at: input.now,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!inserted) return { granted: false, expiresAt: current };
  await trx
    .updateTable('user_profiles')
    .set({ expires_at: expiresAt, ...(input.plan ? { plan: input.plan } : {}) })
    .where('user_id', '=', input.userId)
    .execute();
  return { granted: true, expiresAt };
}

/** Locks the owner's profile row for the transaction, creating it (plan free, no expiry) when missing. */
async function lockProfile(trx: Trx, userId: string) {
  await trx
    .insertInto('user_profiles')
    .values({
      user_id: userId,
      plan: 'free',
      expires_at: null,
      full_name: null,
      stripe_subscription_id: null,
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
  return trx
    .selectFrom('user_profiles')
    .select(['expires_at', 'created_at', 'plan', 'stripe_subscription_id'])
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/**
 * Records the free trial in the history before the first grant changes the expiry: the days
 * between the profile's creation and its expiry (CHARLA_TRIAL_DAYS when it was created). Nothing
 * when the profile never had an expiry or billing already recorded something for the owner.
 */
async function recordTrial(
  trx: Trx,
  userId: string,
  profile: { expires_at: Date | string | null; created_at: Date },
): Promise<void> {
  if (!profile.expires_at) return;
  const any = await trx
    .selectFrom('billing_grants')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (any) return;
  const created = new Date(profile.created_at);
  const expires = new Date(profile.expires_at);
  const days = Math.round((expires.getTime() - created.getTime()) / DAY_MS);
  if (days <= 0) return;
  await trx
    .insertInto('billing_grants')
    .values({
      key: `trial:${userId}`,
      user_id: userId,
      kind: 'trial',
      days,
      source: null,
      amount_cents: null,
      currency: null,
      expires_after: expires,
      created_at: created,
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}

/** Records the trial in the history (as the first grant would) so /gestion can list it. */
export async function ensureTrialRecorded(db: BillingDb, userId: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const profile = await trx
      .selectFrom('user_profiles')
      .select(['expires_at', 'created_at'])
      .where('user_id', '=', userId)
      .forUpdate()
      .executeTakeFirst();
    if (profile) await recordTrial(trx, userId, profile);
  });
}

/** What added days to an owner, newest first (the /gestion history). */
export async function listGrants(db: BillingDb, userId: string, limit = 50) {
  return db
    .selectFrom('billing_grants')
    .select(['kind', 'days', 'amount_cents', 'currency', 'source', 'expires_after', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The owner's profile fields billing reads, or undefined. */
export async function findBillingProfile(db: BillingDb, userId: string) {
  return db
    .selectFrom('user_profiles')
    .select(['plan', 'expires_at', 'stripe_subscription_id', 'created_at'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

// ---- Stripe events and subscriptions -------------------------------------------------------

/**
 * Records a verified event id; false when it was recorded before (a replay: do nothing). Call it
 * inside the transaction that applies the event, so a failure leaves it unrecorded for Stripe's retry.
 */
export async function recordEvent(
  trx: Trx,
  event: { id: string; type: string; created: Date; outcome: string },
): Promise<boolean> {
  const row = await trx
    .insertInto('billing_events')
    .values({ id: event.id, type: event.type, created: event.created, outcome: event.outcome })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

/** Sets what a recorded event did (for operators reading `billing_events`). */
export async function setEventOutcome(trx: Trx, id: string, outcome: string): Promise<void> {
  await trx.updateTable('billing_events').set({ outcome }).where('id', '=', id).execute();
}

/** A subscription as last heard of, or undefined. */
export async function findSubscription(db: BillingDb | Trx, id: string) {
  return db.selectFrom('billing_subscriptions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The owner's newest subscription that has not ended, or undefined. */
export async function currentSubscription(db: BillingDb, userId: string) {
  return db
    .selectFrom('billing_subscriptions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', 'not in', ['canceled', 'incomplete_expired'])
    .orderBy('event_created', 'desc')
    .executeTakeFirst();
}

/** Statuses after which a subscription never charges again. */
export const ENDED_STATUSES = new Set(['canceled', 'incomplete_expired']);

/**
 * Stores a subscription's state from an event, unless a newer event already did (events may arrive
 * out of order), and keeps `user_profiles.stripe_subscription_id` equal to the subscription that
 * renews: set while it is live and not cancelling at period end, cleared (only if it is this one)
 * otherwise. The days already paid stay.
 * @returns false when the state was older than the stored one (nothing changed).
 */
export async function applySubscriptionState(
  trx: Trx,
  state: {
    id: string;
    userId: string;
    status: string;
    cancelAtPeriodEnd: boolean;
    currentPeriodEnd: Date | null;
    eventCreated: Date;
  },
): Promise<boolean> {
  const stored = await trx
    .selectFrom('billing_subscriptions')
    .selectAll()
    .where('id', '=', state.id)
    .forUpdate()
    .executeTakeFirst();
  if (stored) {
    // An ended subscription stays ended; an older event does not overwrite a newer one.
    if (ENDED_STATUSES.has(stored.status) && !ENDED_STATUSES.has(state.status)) return false;
    if (new Date(stored.event_created).getTime() > state.eventCreated.getTime()) return false;
  }
  const values = {
    user_id: stored?.user_id ?? state.userId,
    status: state.status,
    cancel_at_period_end: state.cancelAtPeriodEnd,
    current_period_end: state.currentPeriodEnd ?? stored?.current_period_end ?? null,
    event_created: state.eventCreated,
    updated_at: new Date(),
  };
  await trx
    .insertInto('billing_subscriptions')
    .values({ id: state.id, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .execute();
  const userId = values.user_id;
  const renews = !ENDED_STATUSES.has(state.status) && !state.cancelAtPeriodEnd;
  await lockProfile(trx, userId);
  if (renews) {
    await trx
      .updateTable('user_profiles')
      .set({ stripe_subscription_id: state.id })
      .where('user_id', '=', userId)
      .execute();
  } else {
    await trx
      .updateTable('user_profiles')
      .set({ stripe_subscription_id: null })
      .where('user_id', '=', userId)
      .where('stripe_subscription_id', '=', state.id)
      .execute();
  }
  return true;
}

/** The owner a subscription belongs to, from billing's record, or undefined. */
export async function subscriptionOwner(db: BillingDb | Trx, id: string): Promise<string | undefined> {
  return (
    await db.selectFrom('billing_subscriptions').select('user_id').where('id', '=', id).executeTakeFirst()
  )?.user_id;
}

/** True when an owner with this id exists (webhook metadata is checked before it is trusted). */
export async function ownerExists(db: BillingDb | Trx, id: string): Promise<boolean> {
  return Boolean(await db.selectFrom('owners').select('id').where('id', '=', id).executeTakeFirst());
}

/**
 * What billing keeps of an owner, for their data export (issue 26 §5): every grant of days (the
 * history), their subscriptions and the coupons they redeemed, oldest first.
 */
export async function ownerBillingData(db: BillingDb, userId: string) {
  const grants = await db
    .selectFrom('billing_grants')
    .select(['kind', 'days', 'amount_cents', 'currency', 'source', 'expires_after', 'created_at'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute();
  const subscriptions = await db
    .selectFrom('billing_subscriptions')
    .select(['id', 'status', 'cancel_at_period_end', 'current_period_end', 'updated_at'])
    .where('user_id', '=', userId)
    .orderBy('event_created')
    .execute();
  const coupons = await db
    .selectFrom('billing_coupon_redemptions as r')
    .innerJoin('billing_coupons as c', 'c.id', 'r.coupon_id')
    .select(['c.code', 'c.days', 'r.created_at'])
    .where('r.user_id', '=', userId)
    .orderBy('r.created_at')
    .execute();
  return { grants, subscriptions, coupons };
}
