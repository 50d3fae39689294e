/**
 * The dashboard's side of owner accounts: the session query every guarded screen reads, the sign-in
 * methods, and better-auth's client (lib/auth-client.ts), loaded when a screen first calls it.
 */
import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { redirect } from '@tanstack/react-router';
import type { OwnerMe } from '../../../engine/http/views.ts';
import type { AuthClient } from './auth-client.ts';

/**
 * better-auth's client, loaded on first use: the sign-in screens render without it and fetch it
 * when the owner submits (issue 25: /login's first JavaScript ≤ 150 KB gzip). Call
 * {@link preloadAuthClient} on a form's first focus so the submit does not wait.
 */
export async function loadAuthClient(): Promise<AuthClient> {
  return (await import('./auth-client.ts')).authClient;
}

/** Starts loading better-auth's client (on a sign-in form's first focus); errors show on submit. */
export function preloadAuthClient(): void {
  loadAuthClient().catch(() => undefined);
}

/** The owner behind the session, as `GET /api/me` returns it (engine/http/views.ts). */
export type Me = OwnerMe;

/** The signed-in owner, or null without a session (`GET /api/me` answers `{owner: null}`). */
export const meQuery = queryOptions({
  queryKey: ['me'],
  queryFn: async (): Promise<Me | null> => {
    const res = await fetch('/api/me', { credentials: 'same-origin' });
    if (!res.ok) throw new Error(`GET /api/me ${res.status}`);
    return ((await res.json()) as { owner: Me | null }).owner;
  },
  staleTime: 30_000,
});

/**
 * Which sign-in methods the server offers, and whether its mails leave it (`mail`: false when the
 * server has no SMTP and writes them to its outbox, issue 29).
 */
export const authConfigQuery = queryOptions({
  queryKey: ['auth-config'],
  queryFn: async (): Promise<{ google: boolean; mail: boolean }> => {
    const res = await fetch('/api/auth-config');
    return res.ok
      ? ((await res.json()) as { google: boolean; mail: boolean })
      : { google: false, mail: true };
  },
  staleTime: Number.POSITIVE_INFINITY,
});

/** A redirect target from the address, kept only when it is a path of this app. */
export function safeRedirect(value: unknown, fallback = '/main'): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : fallback;
}

/** Browser-local flag of a pending password recovery (spec 000 §3 `needsPasswordUpdate`). */
export const NEEDS_PASSWORD_UPDATE = 'needsPasswordUpdate';

/**
 * The owner screens' guard (their route's `beforeLoad`): without a session, to /login with the way
 * back (`?redirect=`), spec 000 §2.
 * @throws the router's redirect to /login.
 */
export async function requireSession({
  context,
  location,
}: {
  context: { queryClient: QueryClient };
  location: { href: string };
}): Promise<void> {
  const me = await context.queryClient.ensureQueryData(meQuery);
  if (!me) throw redirect({ to: '/login', search: { redirect: location.href } });
}
