/**
 * The dashboard's side of billing (issue 11, spec 001 §7): the /gestion status query and the three
 * actions (start a checkout, cancel the renewal, redeem a coupon). Types come from the plugin's
 * browser-safe contract (plugins/billing/api.ts); errors come back as a `code` the screen says in
 * the owner's language.
 */
import { queryOptions } from '@tanstack/react-query';
import type { BillingStatus } from '../../../plugins/billing/api.ts';
import type { PlanId } from '../../../plugins/billing/plans.ts';

export type { BillingStatus, HistoryItem } from '../../../plugins/billing/api.ts';

/** Thrown by the actions: the server's `code` (or `network`, `unauthorized`) and its text. */
export class BillingError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

async function post(url: string, body: unknown): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw new BillingError('network', '');
  }
  const data = (await res.json().catch(() => ({}))) as Record<string, unknown>;
  if (res.status === 401) throw new BillingError('unauthorized', String(data.error ?? ''));
  if (!res.ok) throw new BillingError(String(data.code ?? 'server'), String(data.error ?? ''));
  return data;
}

/** `GET /api/billing`: what /gestion shows. */
export const billingQuery = queryOptions({
  queryKey: ['billing'],
  queryFn: async (): Promise<BillingStatus> => {
    const res = await fetch('/api/billing', { credentials: 'same-origin' });
    if (!res.ok) throw new BillingError(res.status === 401 ? 'unauthorized' : 'server', String(res.status));
    return (await res.json()) as BillingStatus;
  },
  staleTime: 10_000,
});

/**
 * Starts a payment and returns Stripe's checkout address (the caller goes there).
 * @throws BillingError (`paymentsOff`, `tooFew`, `tooMany`, `alreadySubscribed`, `checkout`, `network`).
 */
export async function startCheckout(
  plan: PlanId,
  customDays: number | undefined,
  lang: string,
): Promise<string> {
  const data = await post('/api/create-checkout-session', {
    plan,
    ...(plan === 'custom' ? { customDays } : {}),
    lang,
  });
  if (typeof data.url !== 'string') throw new BillingError('checkout', '');
  return data.url;
}

/** Cancels the renewal at period end. @throws BillingError (`cancel`, `noSubscription`, `network`). */
export async function cancelRenewal(subscriptionId: string): Promise<void> {
  await post('/api/cancel-subscription', { subscription_id: subscriptionId });
}

/**
 * Redeems a coupon (the code uppercased, spec 001 §4); resolves with the days it added.
 * @throws BillingError (`invalid`, `expired`, `exhausted`, `alreadyRedeemed`, `tooMany`, `network`, `unauthorized`).
 */
export async function redeemCoupon(code: string): Promise<number> {
  const data = await post('/api/redeem-coupon', { couponCode: code.trim().toUpperCase() });
  return Number(data.days);
}
