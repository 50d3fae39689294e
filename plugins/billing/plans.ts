/**
 * The plans and their prices (spec 001 §9, issue 11): the one place amounts live, in EUR cents.
 * Browser-safe (no server imports): the dashboard's /gestion screen and, later, the marketing site
 * import it, so the prices shown are the prices charged.
 *
 * - `monthly_35`: 19,99 € billed every 30 days; each paid period adds 35 days (5 free days a month,
 *   up to 60 a year). Labelled "Más popular".
 * - `custom`: 0,90 € per day for a whole number of days from 1 to 21, paid once (the "Day Pass").
 */

/** ISO 4217 currency of every price (Stripe's lowercase form). */
export const CURRENCY = 'eur';

/** The monthly plan (spec 001 §9). */
export const MONTHLY_PLAN = {
  id: 'monthly_35',
  /** Price of one billing period, EUR cents. */
  amountCents: 1999,
  /** Days between two charges (Stripe `recurring.interval: 'day'`, `interval_count: 30`). */
  billingDays: 30,
  /** Days of use each paid period adds. */
  days: 35,
  /** Free days a year beyond the 30-day billing (spec: "up to 60 free days in a year"). */
  freeDaysPerYear: 60,
} as const;

/** The custom plan (Day Pass, spec 001 §5, §9). */
export const CUSTOM_PLAN = {
  id: 'custom',
  /** Price of one day, EUR cents. */
  dayCents: 90,
  /** Fewest and most days one purchase may buy (spec 001 §5: input min 1, max 21). */
  minDays: 1,
  maxDays: 21,
} as const;

/** The plans a checkout may ask for (`POST /api/create-checkout-session` `plan`). */
export const PLAN_IDS = [MONTHLY_PLAN.id, CUSTOM_PLAN.id] as const;
export type PlanId = (typeof PLAN_IDS)[number];

/**
 * The `user_profiles.plan` values billing writes (spec 001 §3 "plan values seen"): `monthly_35`
 * while the owner buys the monthly plan, `daily_0.90` after buying custom days. Neither counts as
 * paid by itself (engine/auth/profiles.ts `isPaid`): access is by days.
 */
export const PROFILE_PLAN = { monthly: 'monthly_35', custom: 'daily_0.90' } as const;

/** Why a custom number of days cannot be bought, or null when it can. */
export type CustomDaysProblem = 'notWhole' | 'tooFew' | 'tooMany' | null;

/**
 * Checks a custom number of days (spec 001 §5): a whole number from 1 to 21. Below 1 the screen
 * says "Necesitas al menos 1 día"; over 21 it recommends the monthly plan.
 */
export function customDaysProblem(days: number): CustomDaysProblem {
  if (!Number.isFinite(days) || !Number.isInteger(days)) return 'notWhole';
  if (days < CUSTOM_PLAN.minDays) return 'tooFew';
  if (days > CUSTOM_PLAN.maxDays) return 'tooMany';
  return null;
}

/** Total of a custom purchase, EUR cents (0,90 € × days; 7 days = 630). */
export function customTotalCents(days: number): number {
  return CUSTOM_PLAN.dayCents * days;
}

/** Price per day of the monthly plan when every period's 35 days are used, EUR cents (≈ 57). */
export function monthlyCentsPerDay(): number {
  return Math.round(MONTHLY_PLAN.amountCents / MONTHLY_PLAN.days);
}

/**
 * Formats EUR cents for a language (`es` → "19,99 €", `en` → "€19.99"), with Intl.
 * @param cents an amount in EUR cents.
 * @param locale a BCP 47 tag (the interface language).
 */
export function formatEur(cents: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency: 'EUR' }).format(cents / 100);
}
