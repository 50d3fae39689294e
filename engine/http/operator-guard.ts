/**
 * Who may call `/api/operator/*` (issue 26 §6): the holder of the operator token
 * (engine/operator.ts: the {@link OPERATOR_HEADER} header, derived from the instance secret, so every
 * node accepts it; `charla coupons …` and `charla owners …` send it when `charla serve` holds the
 * embedded database), or a signed-in owner with the operator role (`owners.operator`, set with
 * `charla owners operator <email>`), through the dashboard's /admin.
 *
 * The routes are declared `public: true` in the route table (no session is needed with the token)
 * and call {@link operatorGuard} first, which answers in this order:
 * - 429 past the address's limit (`authAddress`, engine/rate-limits.ts, counted apart from the
 *   account routes under the key `operator:<address>`);
 * - 403 "Token de operador no válido." when the header is present and wrong;
 * - 403 (CSRF, engine/http/csrf.ts) for a cookie-carried request from another site, as on every
 *   owner route;
 * - 401 "Debes iniciar sesión." without the token or a session;
 * - 403 "Solo el operador puede hacer esto." for an owner without the role.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.ts';
import { isOperatorRequest, OPERATOR_HEADER } from '../operator.ts';
import { addressKey, admit, type RateLimiter } from '../rate-limits.ts';
import type { Database } from '../store/database.ts';
import { findOwnerById } from '../store/queries/owners.ts';
import { appOrigins, CROSS_SITE_REFUSED, isCrossSiteRequest } from './csrf.ts';

/** 403 for a wrong operator token (Spanish, the API's language; the dashboard translates by status). */
export const OPERATOR_TOKEN_INVALID = 'Token de operador no válido.';
/** 403 for a signed-in owner without the operator role. */
export const OPERATOR_ONLY = 'Solo el operador puede hacer esto.';
/** 429 past the limit. */
export const OPERATOR_TOO_MANY = 'Demasiadas solicitudes seguidas. Espera un minuto y vuelve a intentarlo.';

/** Who is acting: the token's holder, or an owner with the operator role. */
export type OperatorActor = { kind: 'token' } | { kind: 'owner'; owner: { id: string; email: string } };

/** What {@link operatorGuard} reads. */
export interface OperatorGuardDeps {
  secrets: { derive(purpose: string, value: string): string };
  db: Kysely<Database>;
  /** The session's owner; throws AppError UNAUTHORIZED without one (engine/http/auth.ts). */
  requireOwner: (req: FastifyRequest) => Promise<{ id: string; email: string }>;
  limits: Pick<RateLimiter, 'hit'>;
  /** PUBLIC_URL, whose origin (and loopback alias) cookie-carried writes must come from. */
  publicUrl: string | undefined;
}

/**
 * Builds the guard of the operator routes (the module's rules and status codes).
 * @returns a function resolving the actor, or throwing AppError (401, 403, 429).
 */
export function operatorGuard(
  deps: OperatorGuardDeps,
): (req: FastifyRequest, reply: FastifyReply) => Promise<OperatorActor> {
  const origins = appOrigins(deps.publicUrl);
  return async (req, reply) => {
    if (!(await admit(deps.limits, reply, [{ limit: 'authAddress', key: `operator:${addressKey(req.ip)}` }])))
      throw new AppError('RATE_LIMITED', OPERATOR_TOO_MANY);
    if (req.headers[OPERATOR_HEADER] !== undefined) {
      if (isOperatorRequest(req, deps.secrets)) return { kind: 'token' };
      throw new AppError('FORBIDDEN', OPERATOR_TOKEN_INVALID);
    }
    if (isCrossSiteRequest(req, origins)) throw new AppError('FORBIDDEN', CROSS_SITE_REFUSED);
    const owner = await deps.requireOwner(req);
    if (!(await findOwnerById(deps.db, owner.id))?.operator) throw new AppError('FORBIDDEN', OPERATOR_ONLY);
    return { kind: 'owner', owner: { id: owner.id, email: owner.email } };
  };
}

/** Who the history and logs name for an action: `operator` (token) or the owner's e-mail. */
export function actorName(actor: OperatorActor): string {
  return actor.kind === 'token' ? 'operator' : actor.owner.email;
}
