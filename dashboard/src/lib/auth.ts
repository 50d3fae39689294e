/**
 * The dashboard's side of owner accounts: better-auth's React client on `/api/auth`, plus the
 * session query every guarded screen reads. The interface language goes with each request so mails
 * come in the owner's language.
 */
import { queryOptions } from '@tanstack/react-query';
import { createAuthClient } from 'better-auth/react';
import type { OwnerMe } from '../../../engine/http/views.ts';
import { LANGUAGE_KEY } from '../i18n/index.ts';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  fetchOptions: {
    onRequest(context) {
      context.headers.set('x-app-language', localStorage.getItem(LANGUAGE_KEY) ?? 'es');
    },
  },
});

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

/** Which sign-in methods the server offers. */
export const authConfigQuery = queryOptions({
  queryKey: ['auth-config'],
  queryFn: async (): Promise<{ google: boolean }> => {
    const res = await fetch('/api/auth-config');
    return res.ok ? ((await res.json()) as { google: boolean }) : { google: false };
  },
  staleTime: Number.POSITIVE_INFINITY,
});

/** A redirect target from the address, kept only when it is a path of this app. */
export function safeRedirect(value: unknown, fallback = '/main'): string {
  return typeof value === 'string' && value.startsWith('/') && !value.startsWith('//') ? value : fallback;
}

/** Browser-local flag of a pending password recovery (spec 000 §3 `needsPasswordUpdate`). */
export const NEEDS_PASSWORD_UPDATE = 'needsPasswordUpdate';
