/**
 * Owner authentication for owner routes. Until owner accounts exist (the accounts issue), an owner
 * is identified by a development token: `Authorization: Bearer <token>`, where the token is the
 * owner's id signed with the instance secret (engine/secrets.ts). `charla serve` prints the demo
 * owner's token; `charla owners token` prints anyone's.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.ts';
import type { SecretBox } from '../secrets.ts';
import type { Database, Owner } from '../store/database.ts';
import { findOwnerById } from '../store/queries/owners.ts';

/** Spec 000 §8: "Debes iniciar sesión." */
export const SIGN_IN_REQUIRED = 'Debes iniciar sesión.';

/** Makes an owner's development token. */
export function ownerToken(box: SecretBox, ownerId: string): string {
  return box.sign(`owner:${ownerId}`);
}

/**
 * Resolves the owner of a request.
 * @throws AppError UNAUTHORIZED ("Debes iniciar sesión.") without a valid token of an existing owner.
 */
export async function requireOwner(
  req: FastifyRequest,
  db: Kysely<Database>,
  box: SecretBox,
): Promise<Owner> {
  const header = req.headers.authorization ?? '';
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : '';
  const value = token ? box.verify(token) : null;
  const ownerId = value?.startsWith('owner:') ? value.slice(6) : null;
  const owner = ownerId ? await findOwnerById(db, ownerId) : undefined;
  if (!owner) throw new AppError('UNAUTHORIZED', SIGN_IN_REQUIRED);
  return owner;
}
