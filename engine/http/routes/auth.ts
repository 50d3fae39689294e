/**
 * better-auth's endpoints under `/api/auth/*` (sign-up, sign-in, sign-out, e-mail confirmation,
 * password reset and change, Google), mounted on Fastify as its integration guide does, with the
 * sign-in failure limit of engine/auth/limits.ts around `POST /api/auth/sign-in/email`. Also
 * `GET /api/me`: the signed-in owner with their profile, days remaining and paid state, or null.
 */
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { failureKey, TOO_MANY_ATTEMPTS } from '../../auth/limits.ts';
import { daysRemaining, isPaid } from '../../auth/profiles.ts';
import { AppError } from '../../errors.ts';
import { isSubscriptionPlan } from '../../schemas.ts';
import { findProfile } from '../../store/queries/owners.ts';
import { requireOwner } from '../auth.ts';
import type { HttpDeps } from '../server.ts';
import { OwnerMe } from '../views.ts';

/** The request's headers for a re-serialised body (its length is recomputed). */
function requestHeaders(headers: Parameters<typeof fromNodeHeaders>[0], clientIp: string): Headers {
  const out = fromNodeHeaders(headers);
  out.delete('content-length');
  out.delete('transfer-encoding');
  out.set('x-charla-client-ip', clientIp);
  return out;
}

export const authRoutes: FastifyPluginAsyncZod<HttpDeps> = async (app, deps) => {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    schema: { hide: true },
    async handler(req, reply) {
      const url = new URL(req.url, `${req.protocol}://${req.headers.host ?? 'localhost'}`);
      const signIn = req.method === 'POST' && url.pathname === '/api/auth/sign-in/email';
      const email =
        signIn && req.body && typeof (req.body as { email?: unknown }).email === 'string'
          ? (req.body as { email: string }).email
          : '';
      const key = signIn ? failureKey(email, req.ip) : '';
      if (signIn && (await deps.signInLimiter.blocked(key))) {
        return reply.code(429).send({ code: 'TOO_MANY_ATTEMPTS', message: TOO_MANY_ATTEMPTS });
      }
      const response = await deps.auth.handler(
        new Request(url, {
          method: req.method,
          headers: requestHeaders(req.headers, req.ip),
          ...(req.body !== undefined && req.method !== 'GET' ? { body: JSON.stringify(req.body) } : {}),
        }),
      );
      if (signIn) {
        if (response.status === 401 || response.status === 403) await deps.signInLimiter.failed(key);
        else if (response.ok) await deps.signInLimiter.succeeded(key);
      }
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
          'Whether Google sign-in is configured (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET); the login screen hides the button otherwise.',
        tags: ['owner'],
        response: { 200: z.object({ google: z.boolean() }) },
      },
    },
    async () => ({ google: deps.googleSignIn }),
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
        },
      };
    },
  );
};
