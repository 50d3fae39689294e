/**
 * The owner's data (issue 26 §5): `GET /api/account/export` downloads everything of theirs as a
 * ZIP (engine/account-export.ts), and `POST /api/account/delete` deletes their account with their
 * current password (engine/accounts.ts `deleteAccount`, the same function `charla owners delete`
 * calls). Both are owner routes (session first; the delete's Origin is checked by the server's
 * cross-site rule, engine/http/csrf.ts). Errors carry a `code` the dashboard says in the owner's
 * language, and a Spanish `error`.
 */
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accountExport } from '../../account-export.ts';
import { checkOwnerPassword, deleteAccount } from '../../accounts.ts';
import { TOO_MANY_ATTEMPTS } from '../../auth/limits.ts';
import type { Logger } from '../../logger.ts';
import { admit } from '../../rate-limits.ts';
import type { Registry } from '../../registry/index.ts';
import { requireOwner } from '../auth.ts';
import type { RouteDeps } from './deps.ts';

/** The account routes' dependencies: the engine's routes' and the registry (plugins, adapters). */
export interface AccountRouteDeps extends RouteDeps {
  registry: Registry;
  log: Logger;
}

/** Spanish texts of the account routes' refusals (the dashboard shows its own by `code`). */
export const ACCOUNT_ERRORS = {
  wrongPassword: 'La contraseña no es correcta.',
  noPassword:
    'Tu cuenta no tiene contraseña. Crea una con «¿Olvidaste tu contraseña?» en el acceso y vuelve a intentarlo.',
  exportTooMany: 'Ya has descargado tus datos varias veces en la última hora. Vuelve a intentarlo más tarde.',
} as const;

const ErrorBody = z.object({ error: z.string(), code: z.string().optional() });

/** Body of `POST /api/account/delete`. */
export const DeleteAccountBody = z.object({
  password: z.string().min(1).max(1024).describe('The owner’s current password.'),
});

/** The file name of an export: `charla-export-YYYY-MM-DD.zip`. */
function exportName(now: Date): string {
  return `charla-export-${now.toISOString().slice(0, 10)}.zip`;
}

export const accountRoutes: FastifyPluginAsyncZod<AccountRouteDeps> = async (app, deps) => {
  app.get(
    '/api/account/export',
    {
      // A HEAD would start an export nobody reads (and count against the limit).
      exposeHeadRoute: false,
      config: { owner: { self: true } },
      schema: {
        summary: 'Download all the owner’s data',
        description:
          'Issue 26 §5. A ZIP, streamed: `charla-export.json` (the account without password hashes or tokens; the bots without channel credentials, with their files’ metadata, IALandings, followers and messages; each plugin’s data under `plugins`: bookings, billing history, broadcasts…) and `files/<bot id>/<name>` with every stored file. At most 3 an hour per owner (`CHARLA_LIMIT_EXPORT_OWNER`): 429 with `code` `tooMany` past it.',
        tags: ['owner'],
        produces: ['application/zip'],
        response: { 200: z.unknown().describe('The ZIP (application/zip).'), 401: ErrorBody, 429: ErrorBody },
      },
    },
    async (req, reply) => {
      const me = await requireOwner(req, deps);
      if (!(await admit(deps.limits, reply, [{ limit: 'exportOwner', key: me.id }])))
        return reply.code(429).send({ error: ACCOUNT_ERRORS.exportTooMany, code: 'tooMany' });
      const zip = await accountExport(
        { db: deps.db, storage: deps.storage, registry: deps.registry, log: deps.log },
        me.id,
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${exportName(new Date())}"`)
        .header('cache-control', 'no-store')
        .send(zip);
    },
  );

  app.post(
    '/api/account/delete',
    {
      config: { owner: { self: true } },
      schema: {
        summary: 'Delete the owner’s account',
        description:
          'Issue 26 §5. With the current password: deletes the owner and everything of theirs (bots, files and their stored bytes, conversations, bookings, billing history, sessions…), stops their bots’ channels, and signs them out (the session cookie is cleared). A wrong password is 403 with `code` `wrongPassword` and deletes nothing; an account without a password (Google only) is 400 `noPassword`; wrong passwords count against the sign-in limits (429 `tooMany`).',
        tags: ['owner'],
        body: DeleteAccountBody,
        response: {
          200: z.object({ deleted: z.literal(true), bots: z.number(), files: z.number() }),
          400: ErrorBody,
          401: ErrorBody,
          403: ErrorBody,
          429: ErrorBody,
        },
      },
    },
    async (req, reply) => {
      const me = await requireOwner(req, deps);
      // Counted like a sign-in before the password is checked (engine/auth/limits.ts).
      const limited = await deps.signInLimiter.attempt(me.email, req.ip);
      if (!limited.allowed)
        return reply
          .code(429)
          .header('retry-after', String(limited.retryAfterS))
          .send({ error: TOO_MANY_ATTEMPTS, code: 'tooMany' });
      const check = await checkOwnerPassword(deps.auth, me.id, req.body.password);
      if (check === 'none') {
        await deps.signInLimiter.uncounted(me.email, req.ip);
        return reply.code(400).send({ error: ACCOUNT_ERRORS.noPassword, code: 'noPassword' });
      }
      if (check === 'wrong')
        return reply.code(403).send({ error: ACCOUNT_ERRORS.wrongPassword, code: 'wrongPassword' });
      await deps.signInLimiter.succeeded(me.email, req.ip);
      const deleted = await deleteAccount(
        { db: deps.db, storage: deps.storage, registry: deps.registry, log: deps.log },
        me.id,
      );
      // The session rows went with the owner; this clears the browser's cookie.
      const signedOut = await deps.auth.api
        .signOut({ headers: fromNodeHeaders(req.headers), returnHeaders: true })
        .catch(() => null);
      const cookies = signedOut?.headers.getSetCookie() ?? [];
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return { deleted: true as const, bots: deleted?.bots ?? 0, files: deleted?.files ?? 0 };
    },
  );
};
