/**
 * The owner of a request, from their better-auth session: the session cookie set at sign-in, or
 * the same session token as `Authorization: Bearer <token>` for API clients and scripts
 * (`charla owners token` prints one). Every owner route calls {@link requireOwner} and then reads
 * and writes only that owner's rows.
 */
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/index.ts';
import { AppError } from '../errors.ts';
import type { Database, Owner } from '../store/database.ts';
import { isDatabaseUnavailable } from '../store/errors.ts';
import { findOwnerById } from '../store/queries/owners.ts';

/** Spec 000 §8: "Debes iniciar sesión." */
export const SIGN_IN_REQUIRED = 'Debes iniciar sesión.';

/**
 * Resolves the owner of a request.
 * @throws AppError UNAUTHORIZED ("Debes iniciar sesión.") without a valid session; the database's
 *   error when it cannot be reached (a 503).
 */
export async function requireOwner(
  req: FastifyRequest,
  deps: { auth: Auth; db: Kysely<Database> },
): Promise<Owner> {
  const known = ownerOf.get(req);
  if (known) return known;
  // An invalid session is "signed out"; a database that cannot be reached is not (issue 24 §1: the
  // owner gets a 503 to retry, never a sign-in screen).
  const session = await deps.auth.api
    .getSession({ headers: fromNodeHeaders(req.headers) })
    .catch((err: unknown) => {
      if (isDatabaseUnavailable(err)) throw err;
      return null;
    });
  const owner = session ? await findOwnerById(deps.db, session.user.id) : undefined;
  if (!owner) throw new AppError('UNAUTHORIZED', SIGN_IN_REQUIRED);
  ownerOf.set(req, owner);
  return owner;
}

/** The owner resolved for a request (the guard resolves it once, handlers read it). */
const ownerOf = new WeakMap<FastifyRequest, Owner>();

/** A request the cross-tenant test sends as another owner, aimed at the first owner's rows. */
export interface OwnerProbe {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  json?: Record<string, unknown>;
  /** Multipart fields; a small PDF is attached as `file`. */
  upload?: Record<string, string>;
}

/**
 * Every owner route declares its scope in `config.owner` (issue 3): a `probe` that targets
 * another owner's bot or file (the test expects 404), or `self` for routes that take no ids and
 * act only on the caller's own data; public routes declare `public: true`. test/auth.test.ts reads
 * the route table and fails on any route under /api that declares neither.
 */
export type OwnerScope = { probe: (a: { botId: string; fileId: string }) => OwnerProbe } | { self: true };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** An owner route: the server requires a session before validation (401 "Debes iniciar sesión."). */
    owner?: OwnerScope;
    /** A public route: no session needed (the spec's chat routes). */
    public?: true;
  }
}
