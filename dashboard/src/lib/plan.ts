/**
 * What the owner's plan means on screen (issue 10): a premium or monthly plan is shown as such
 * ("Plan premium"), with its days when it has an expiry and as unlimited when it has none; a plan
 * with an expiry in the future shows "Días Restantes" and the count (spec 001 §2); the red
 * "paused" warning shows only when the server says the owner is not paid (spec 000 §4: the bot is
 * then paused), which is also when the days are 0 ("Sin días"). The rules come from the server
 * (`GET /api/me` and `GET /api/charla-web`: plan, daysRemaining, paid; engine/auth/profiles.ts).
 */
import { isSubscriptionPlan, type SubscriptionPlan } from '../../../engine/schemas.ts';

/** The profile fields the plan display reads (both routes give them). */
export interface PlanInfo {
  plan: string | null;
  daysRemaining: number;
  paid: boolean;
}

/** How a plan shows. */
export type PlanStatus =
  /** A premium or monthly plan; `days` is null when it never expires. */
  | { kind: 'subscription'; plan: SubscriptionPlan; days: number | null }
  /** Days bought or of the free trial, still running. */
  | { kind: 'days'; days: number }
  /** No days left and no subscription: the bot is paused. */
  | { kind: 'paused' };

/** The display state of an owner's plan. */
export function planStatus(info: PlanInfo): PlanStatus {
  if (isSubscriptionPlan(info.plan))
    return {
      kind: 'subscription',
      plan: info.plan,
      days: info.daysRemaining > 0 ? info.daysRemaining : null,
    };
  if (!info.paid) return { kind: 'paused' };
  return { kind: 'days', days: info.daysRemaining };
}
