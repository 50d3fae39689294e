/**
 * better-auth's React client on `/api/auth`. The interface language goes with each request so mails
 * come in the owner's language. Loaded on first use (lib/auth.ts `loadAuthClient`), so the sign-in
 * screens' first JavaScript does not carry it (issue 25: /login ≤ 150 KB gzip).
 */
import { createAuthClient } from 'better-auth/react';
import { LANGUAGE_KEY } from '../i18n/index.ts';

export const authClient = createAuthClient({
  basePath: '/api/auth',
  fetchOptions: {
    onRequest(context) {
      context.headers.set('x-app-language', localStorage.getItem(LANGUAGE_KEY) ?? 'es');
    },
  },
});

/** The client's type, for code that loads it lazily. */
export type AuthClient = typeof authClient;
