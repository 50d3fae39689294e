/**
 * The operator API as the dashboard's /admin calls it (issue 26 §6; plugins/billing/operator-routes.ts
 * and engine/http/routes/operator-admin.ts): queries for owners, coupons, bots and recent errors, and
 * the two actions (grant days, create a coupon). The session cookie goes along; the server answers
 * only an owner with the operator role. A failure is an {@link AdminError} whose `code` names the
 * refusal (`forbidden`, `notFound`, `exists`, `invalid`, …) so the screen says it in the operator's
 * language (`admin.errors.<code>`).
 */
import { queryOptions } from '@tanstack/react-query';
import type { ConnectionHealth } from '../../../engine/registry/index.ts';

/** One owner (`GET /api/operator/owners`). */
export interface AdminOwner {
  id: string;
  email: string;
  emailVerified: boolean;
  operator: boolean;
  plan: string | null;
  expiresAt: string | null;
  daysRemaining: number;
  status: 'unlimited' | 'active' | 'expired';
  bots: number;
  createdAt: string;
}

/** One coupon (`GET /api/operator/coupons`). */
export interface AdminCoupon {
  id: string;
  code: string;
  days: number;
  max_redemptions: number | null;
  redeemed: number;
  valid_until: string | null;
  created_by: string;
  created_at: string;
}

/** One bot and its channels' health (`GET /api/operator/bots`). */
export interface AdminBot {
  id: string;
  name: string;
  owner: string;
  replies: number;
  createdAt: string | null;
  channels: Array<ConnectionHealth & { channel: string }>;
}

/** Recent failures (`GET /api/operator/errors`). */
export interface AdminErrors {
  updates: Array<{
    id: string;
    channel: string;
    chatbotId: string;
    attempts: number;
    error: string | null;
    at: string | null;
  }>;
  jobs: Array<{ id: string; queue: string; error: string | null; at: string | null }>;
}

/** The error codes the screen translates (`admin.errors.<code>`). */
export const ADMIN_ERROR_CODES = [
  'signIn',
  'forbidden',
  'notFound',
  'exists',
  'invalid',
  'tooMany',
  'network',
  'server',
] as const;
/** One of {@link ADMIN_ERROR_CODES}. */
export type AdminErrorCode = (typeof ADMIN_ERROR_CODES)[number];

/** A failed call, with the code the screen translates. */
export class AdminError extends Error {
  constructor(readonly code: AdminErrorCode) {
    super(code);
  }
}

/** The code of a refused answer: the server's own (`noOwner`, `exists`) or the status's. */
function codeOf(status: number, code: unknown): AdminErrorCode {
  if (code === 'noOwner') return 'notFound';
  if (code === 'exists') return 'exists';
  if (status === 401) return 'signIn';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'notFound';
  if (status === 429) return 'tooMany';
  if (status === 400) return 'invalid';
  return 'server';
}

/**
 * Calls the operator API with the session cookie.
 * @throws AdminError on a network failure or a non-2xx answer.
 */
async function call<T>(method: 'GET' | 'POST', url: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      credentials: 'same-origin',
      ...(body !== undefined
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }
        : {}),
    });
  } catch {
    throw new AdminError('network');
  }
  const data = (await res.json().catch(() => ({}))) as { code?: unknown };
  if (!res.ok) throw new AdminError(codeOf(res.status, data.code));
  return data as T;
}

/** The code of any error thrown by these calls. */
export function adminErrorCode(err: unknown): AdminErrorCode {
  return err instanceof AdminError ? err.code : 'server';
}

const get = <T>(key: string, url: string, refetchInterval?: number) =>
  queryOptions({
    queryKey: ['admin', key],
    queryFn: () => call<T>('GET', url),
    retry: false,
    ...(refetchInterval ? { refetchInterval } : {}),
  });

/** Every owner with days, status and bots. */
export const adminOwnersQuery = get<AdminOwner[]>('owners', '/api/operator/owners');
/** Every coupon, newest first. */
export const adminCouponsQuery = get<AdminCoupon[]>('coupons', '/api/operator/coupons');
/** Channel health is refreshed every 30 s while shown, as on the owner's panels. */
export const adminBotsQuery = get<AdminBot[]>('bots', '/api/operator/bots', 30_000);
/** Recent failures, refreshed like the health. */
export const adminErrorsQuery = get<AdminErrors>('errors', '/api/operator/errors', 30_000);

/** Adds days to an owner; answers the owner's days left afterwards. */
export function grantDays(input: { email: string; days: number; note?: string }) {
  return call<{ owner: string; days: number; daysRemaining: number; expiresAt: string | null }>(
    'POST',
    '/api/operator/grant-days',
    input,
  );
}

/** Creates a coupon. */
export function createCoupon(input: {
  code: string;
  days: number;
  maxRedemptions: number | null;
  validUntil: string | null;
}) {
  return call<AdminCoupon>('POST', '/api/operator/coupons', input);
}
