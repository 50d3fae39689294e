/**
 * better-auth's endpoints under `/api/auth/*` (sign-up, sign-in, sign-out, e-mail confirmation,
 * password reset and change, Google), mounted on Fastify as its integration guide does, with the
 * sign-in failure limit of engine/auth/limits.ts around `POST /api/auth/sign-in/email`. Also
 * `GET /api/me`: the signed-in owner with their profile, days remaining and paid state, or null.
 */
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { TOO_MANY_ATTEMPTS } from '../../auth/limits.ts';
import { daysRemaining, isPaid } from '../../auth/profiles.ts';
import { AppError, INVALID_DATA, SERVER_ERROR } from '../../errors.ts';
import { addressKey, admit, type LimitCheck } from '../../rate-limits.ts';
import { isSubscriptionPlan } from '../../schemas.ts';
import { ping } from '../../store/connect.ts';
import { DATABASE_RETRY_AFTER_S } from '../../store/errors.ts';
import { findProfile } from '../../store/queries/owners.ts';
import { requireOwner } from '../auth.ts';
import { OwnerMe } from '../views.ts';
import type { RouteDeps } from './deps.ts';

/** The request's headers for a re-serialised body (its length is recomputed). */
function requestHeaders(headers: Parameters<typeof fromNodeHeaders>[0], clientIp: string): Headers {
  const out = fromNodeHeaders(headers);
  out.delete('content-length');
  out.delete('transfer-encoding');
  out.set('x-charla-client-ip', clientIp);
  return out;
}

/** The account routes that send a mail: limited per address by `authMail` (engine/rate-limits.ts). */
const MAIL_PATHS = new Set([
  '/api/auth/sign-up/email',
  '/api/auth/request-password-reset',
  '/api/auth/forget-password',
  '/api/auth/send-verification-email',
  '/api/auth/change-email',
]);

/** The text of a refused account request (Spanish, the interface's default). */
export const TOO_MANY_REQUESTS =
  'Demasiadas solicitudes seguidas. Espera unos minutos y vuelve a intentarlo.';

export const authRoutes: FastifyPluginAsyncZod<RouteDeps> = async (app, deps) => {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(req, reply) {
      // Only http or https reach better-auth: a trusted proxy's `X-Forwarded-Proto: gopher` made it
      // throw "Could not get origin from request" (a 500; issue 24 §7, found by the fuzz check).
      // A Host header that is no host (a bad port, found by the fuzz check) is the client's fault: 400.
      const base = `${req.protocol === 'https' ? 'https' : 'http'}://${req.headers.host ?? 'localhost'}`;
      if (!URL.canParse(req.url, base))
        return reply.code(400).send({ code: 'BAD_REQUEST', message: INVALID_DATA });
      const url = new URL(req.url, base);
      const signIn = req.method === 'POST' && url.pathname === '/api/auth/sign-in/email';
      const email =
        signIn && req.body && typeof (req.body as { email?: unknown }).email === 'string'
          ? (req.body as { email: string }).email
          : '';
      // Every other account request is limited per address, and those that send a mail more so.
      if (req.method === 'POST' && !signIn) {
        const address = addressKey(req.ip);
        const checks: LimitCheck[] = [{ limit: 'authAddress', key: address }];
        if (MAIL_PATHS.has(url.pathname)) checks.push({ limit: 'authMail', key: address });
        if (!(await admit(deps.limits, reply, checks)))
          return reply.code(429).send({ code: 'TOO_MANY_REQUESTS', message: TOO_MANY_REQUESTS });
      }
      // Issue 24 §3: the attempt is counted before the password is checked (atomically, shared by
      // every process), so concurrent guesses cannot all be checked.
      if (signIn) {
        const limited = await deps.signInLimiter.attempt(email, req.ip);
        if (!limited.allowed)
          return reply
            .code(429)
            .header('retry-after', String(limited.retryAfterS))
            .send({ code: 'TOO_MANY_ATTEMPTS', message: TOO_MANY_ATTEMPTS });
      }
      const response = await deps.auth.handler(
        new Request(url, {
          method: req.method,
          headers: requestHeaders(req.headers, req.ip),
          ...(req.body !== undefined && req.method !== 'GET' ? { body: JSON.stringify(req.body) } : {}),
        }),
      );
      if (signIn) {
        // A wrong password (401) or an unconfirmed account (403) stays counted.
        if (response.ok) await deps.signInLimiter.succeeded(email, req.ip);
        else if (response.status !== 401 && response.status !== 403)
          await deps.signInLimiter.uncounted(email, req.ip);
      }
      // better-auth answers 500 when its database query fails: while the database is unreachable
      // that is a 503 to retry (issue 24 §1), not a server fault.
      if (response.status >= 500 && !(await ping(deps.db)))
        return reply
          .code(503)
          .header('retry-after', String(DATABASE_RETRY_AFTER_S))
          .send({ code: 'UNAVAILABLE', message: SERVER_ERROR });
      reply.status(response.status);
      response.headers.forEach((value, name) => {
        if (name !== 'set-cookie') reply.header(name, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });

  app.get(
    '/api/auth-config',
    {
      config: { public: true },
      schema: {
        summary: 'Sign-in methods on offer',
        description:
          'Whether Google sign-in is configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET; the login screen hides the button otherwise), and whether owner mails leave the server (`mail`: SMTP configured; without it they are written to the server’s outbox and "check your e-mail" says so, issue 29).',
        tags: ['owner'],
        response: { 200: z.object({ google: z.boolean(), mail: z.boolean() }) },
      },
    },
    async () => ({ google: deps.googleSignIn, mail: deps.mailConfigured }),
  );

  app.get(
    '/api/me',
    {
      config: { public: true },
      schema: {
        summary: 'The signed-in owner',
        description:
          '`{owner}`: e-mail, profile (plan, expiry), days remaining (spec 001 §3: rounded up, never below 0) whether the owner counts as paid (spec 000 §4) and whether a subscription renews (`subscribed`, spec 001 §4: the Telegram warning shows only without one). Without a session (or with an expired one) `{owner: null}`: being signed out is an expected state for the sign-in screens, not an error (issue 10).',
        tags: ['owner'],
        response: { 200: z.object({ owner: OwnerMe.nullable() }) },
      },
    },
    async (req) => {
      const me = await requireOwner(req, deps).catch((err: unknown) => {
        if (err instanceof AppError && err.code === 'UNAUTHORIZED') return null;
        throw err;
      });
      if (!me) return { owner: null };
      const profile = await findProfile(deps.db, me.id);
      return {
        owner: {
          id: me.id,
          email: me.email,
          name: me.name,
          emailVerified: me.email_verified,
          plan: profile?.plan ?? null,
          expiresAt: profile?.expires_at ? new Date(profile.expires_at).toISOString() : null,
          daysRemaining: daysRemaining(profile),
          paid: isPaid(profile),
          subscribed: Boolean(profile?.stripe_subscription_id) || isSubscriptionPlan(profile?.plan),
          operator: me.operator,
        },
      };
    },
  );
};
