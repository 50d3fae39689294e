/**
 * Owner profiles: plan and expiry (spec 001 §3). The one place that says how many days an owner
 * has left and whether they count as paid; every screen and gate calls these.
 */
import type { Kysely } from 'kysely';
import { isSubscriptionPlan } from '../schemas.ts';
import type { Database } from '../store/database.ts';
import { findProfile, insertProfileIfMissing } from '../store/queries/owners.ts';

const DAY_MS = 86_400_000;

/** The profile fields these rules read. */
export interface ProfileLike {
  plan: string | null;
  expires_at: Date | string | null;
}

/**
 * Days remaining (spec 001 §3): the days between now and `expires_at`, rounded up, when it is in the
 * future; otherwise 0. Also 0 when there is no profile or its expiry cannot be read.
 */
export function daysRemaining(profile: ProfileLike | null | undefined, now: Date = new Date()): number {
  if (!profile?.expires_at) return 0;
  const expires = new Date(profile.expires_at).getTime();
  if (Number.isNaN(expires)) return 0;
  return Math.max(0, Math.ceil((expires - now.getTime()) / DAY_MS));
}

/** "Paid" (spec 000 §4, 001 §4): the plan is premium or monthly, or the expiry is in the future. */
export function isPaid(profile: ProfileLike | null | undefined, now: Date = new Date()): boolean {
  if (!profile) return false;
  if (isSubscriptionPlan(profile.plan)) return true;
  if (!profile.expires_at) return false;
  const expires = new Date(profile.expires_at).getTime();
  return !Number.isNaN(expires) && expires > now.getTime();
}

/**
 * Creates an owner's profile on first sign-in (issue 3): plan `free`, expiring `trialDays` days
 * from now (the marketing site's 30-day free trial). With `trialDays` 0 (`CHARLA_TRIAL_DAYS=0`, a
 * server that does not sell days, issue 11 §7: "keeps meaning no expiry") the profile is `premium`
 * with no expiry: access never runs out. An existing profile is left as it is.
 */
export async function ensureProfile(
  db: Kysely<Database>,
  userId: string,
  trialDays: number,
  now = new Date(),
): Promise<void> {
  if (await findProfile(db, userId)) return;
  await insertProfileIfMissing(db, {
    user_id: userId,
    plan: trialDays > 0 ? 'free' : 'premium',
    expires_at: trialDays > 0 ? new Date(now.getTime() + trialDays * DAY_MS) : null,
  });
}
